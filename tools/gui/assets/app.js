// SPDX-License-Identifier: MIT
// damka-gui's page: draws the state the server sends (board, moves, clocks, analysis) and
// turns clicks into API calls. It knows no rule of the game: legal moves, notation, results
// and draws all come from the server, which has them from the engine library.
'use strict';

const FILES = 'abcdefgh';
const SQ = 50, MARGIN = 20;
const svgNS = 'http://www.w3.org/2000/svg';

const ui = {
  state: null,          // the server's last state
  lines: [],            // analysis lines of the last info event
  flipped: false,
  selection: [],        // squares clicked so far of the move being entered
  drag: null,           // square a drag started on
  editing: null,        // board editor: {pieces, side}
  stateAt: 0,           // when the state arrived (for the running clock)
  latency: [],          // ms from a move sent to the engine's reply arriving (measured)
  sentAt: null,         // {time, plies} of the last move sent while the engine plays
};
window.damka = ui;      // for the browser test and for people at the console

const $ = (id) => document.getElementById(id);

function el(name, attrs, parent) {
  const e = document.createElementNS(svgNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

// ---- Talking to the server ------------------------------------------------------------------

async function api(path, params, body) {
  const q = new URLSearchParams(params || {}).toString();
  let res;
  try {
    res = await fetch('/api/' + path + (q ? '?' + q : ''), {
      method: 'POST', body: body === undefined ? null : body,
      headers: { 'X-Requested-With': 'damka', 'Content-Type': 'text/plain' },
    });
  } catch (e) {
    showError('the server does not answer: ' + e);
    return null;
  }
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) {
    showError((data && data.error) || ('HTTP ' + res.status));
    return null;
  }
  showError('');
  setState(data);
  return data;
}

function showError(text) {
  const e = $('error');
  e.textContent = text;
  e.hidden = !text;
}

function setState(s) {
  if (!s || !s.moves) return;
  const old = ui.state;
  // A reply can arrive after the live stream's newer state: keep the newest.
  if (old && s.version < old.version) return;
  ui.state = s;
  ui.stateAt = performance.now();
  if (ui.sentAt && s.moves.length > ui.sentAt.plies) {
    ui.latency.push(performance.now() - ui.sentAt.time);
    ui.sentAt = null;
  }
  if (!old || old.fen !== s.fen || old.ply !== s.ply) ui.selection = [];
  if (!s.analysing && s.engine.status !== 'thinking' && s.engine.status !== 'pondering') ui.lines = [];
  render();
}

function connect() {
  const es = new EventSource('/api/events');
  es.addEventListener('state', (ev) => setState(JSON.parse(ev.data)));
  es.addEventListener('info', (ev) => {
    ui.lines = JSON.parse(ev.data).lines;
    renderAnalysis();
    renderBoard();
  });
  es.onerror = () => { $('engine-status').textContent = '(reconnecting to the server...)'; };
}

// ---- The board ------------------------------------------------------------------------------

function squareXY(name) {
  const f = FILES.indexOf(name[0]), r = Number(name[1]) - 1;
  const x = ui.flipped ? 7 - f : f, y = ui.flipped ? r : 7 - r;
  return [MARGIN + x * SQ, MARGIN + y * SQ];
}

function shownPieces() {
  return ui.editing ? ui.editing.pieces : ui.state.pieces;
}

// The legal moves that begin with the squares entered so far.
function candidates(prefix) {
  return ui.state.legal.filter((m) => prefix.every((sq, i) => m.path[i] === sq));
}

function renderBoard() {
  const svg = $('board');
  svg.textContent = '';
  const s = ui.state;
  const pieces = shownPieces();
  const lastMove = !ui.editing && s.ply > 0 ? lastMovePath() : [];
  const next = new Set();
  if (ui.selection.length) {
    for (const m of candidates(ui.selection))
      if (m.path.length > ui.selection.length) next.add(m.path[ui.selection.length]);
    for (const m of candidates(ui.selection.slice(0, 1))) next.add(m.path[m.path.length - 1]);
  }
  for (let r = 0; r < 8; r++) {
    for (let f = 0; f < 8; f++) {
      const name = FILES[f] + (r + 1);
      const [x, y] = squareXY(name);
      const dark = (f + r) % 2 === 0;
      const cls = dark ? 'sq-dark' : 'sq-light';
      const rect = el('rect', { x, y, width: SQ, height: SQ, class: cls }, svg);
      if (!dark) continue;
      rect.setAttribute('data-square', name);
      if (ui.selection.includes(name)) rect.classList.add('selected');
      else if (lastMove.includes(name)) rect.classList.add('last');
      const p = pieces[name];
      if (p) {
        const side = p.toLowerCase();
        el('circle', { cx: x + SQ / 2, cy: y + SQ / 2, r: SQ * 0.38,
                       class: 'piece ' + side, 'data-piece': p }, svg);
        if (p === 'W' || p === 'B') {
          const t = el('text', { x: x + SQ / 2, y: y + SQ / 2 + 7, class: 'crown ' + side }, svg);
          t.textContent = '\u265B';
        }
      }
      if (next.has(name)) el('circle', { cx: x + SQ / 2, cy: y + SQ / 2, r: 8, class: 'target' }, svg);
    }
  }
  for (let i = 0; i < 8; i++) {
    const file = ui.flipped ? FILES[7 - i] : FILES[i];
    const rank = ui.flipped ? i + 1 : 8 - i;
    el('text', { x: MARGIN + i * SQ + SQ / 2 - 4, y: MARGIN + 8 * SQ + 15, class: 'coord' }, svg)
      .textContent = file;
    el('text', { x: 5, y: MARGIN + i * SQ + SQ / 2 + 4, class: 'coord' }, svg).textContent = rank;
  }
  // The best move of the analysis (or of the engine's thinking) as an arrow.
  const best = ui.lines.find((l) => l.multipv === 1);
  if (best && best.from && !ui.editing) {
    const [x1, y1] = squareXY(best.from), [x2, y2] = squareXY(best.to);
    const defs = el('defs', {}, svg);
    const mk = el('marker', { id: 'head', markerWidth: 4, markerHeight: 4, refX: 2, refY: 2,
                              orient: 'auto', markerUnits: 'strokeWidth' }, defs);
    el('path', { d: 'M0,0 L4,2 L0,4 z', fill: '#1565c0' }, mk);
    el('line', { x1: x1 + SQ / 2, y1: y1 + SQ / 2, x2: x2 + SQ / 2, y2: y2 + SQ / 2,
                 class: 'arrow', 'marker-end': 'url(#head)', id: 'best-arrow' }, svg);
  }
}

// Squares of the move that led to the shown position, from the move list's text.
function lastMovePath() {
  const t = ui.state.moves[ui.state.ply - 1] || '';
  return t.split(/[-:x]/);
}

function squareOf(ev) {
  const t = document.elementFromPoint(ev.clientX, ev.clientY);
  return t && t.getAttribute ? t.getAttribute('data-square') : null;
}

function onSquare(name) {
  if (!name || !ui.state) return;
  if (ui.editing) return editSquare(name);
  $('routes').hidden = true;
  if (!ui.selection.length) {
    if (candidates([name]).length) ui.selection = [name];
    return renderBoard();
  }
  const entered = ui.selection.concat([name]);
  const byPath = candidates(entered);
  if (byPath.length) {
    const done = byPath.filter((m) => m.path.length === entered.length);
    if (done.length === 1 && byPath.length === 1) return play(done[0]);
    ui.selection = entered;
    return renderBoard();
  }
  // The destination clicked at once: one move, or a choice of routes.
  const byEnd = candidates(ui.selection.slice(0, 1)).filter((m) => m.path[m.path.length - 1] === name);
  if (byEnd.length === 1) return play(byEnd[0]);
  if (byEnd.length > 1) return offerRoutes(byEnd);
  ui.selection = candidates([name]).length ? [name] : [];
  renderBoard();
}

function offerRoutes(moves) {
  const box = $('routes');
  box.textContent = 'Several captures end there: ';
  for (const m of moves) {
    const b = document.createElement('button');
    b.textContent = m.text;
    b.className = 'route';
    b.onclick = () => { box.hidden = true; play(m); };
    box.appendChild(b);
  }
  box.hidden = false;
}

function play(move) {
  ui.selection = [];
  const s = ui.state;
  if (s.play.engine !== 'none') ui.sentAt = { time: performance.now(), plies: s.ply + 1 };
  api('move', { move: move.text });
}

// ---- Board editor ---------------------------------------------------------------------------

const CYCLE = ['', 'w', 'W', 'b', 'B'];

function editSquare(name) {
  const p = ui.editing.pieces;
  const next = CYCLE[(CYCLE.indexOf(p[name] || '') + 1) % CYCLE.length];
  if (next) p[name] = next; else delete p[name];
  renderBoard();
}

function startEditing(on) {
  ui.editing = on ? { pieces: Object.assign({}, ui.state.pieces) } : null;
  $('editor-tools').hidden = !on;
  $('edit').hidden = on;
  if (on) $('edit-side').value = ui.state.turn === 'white' ? 'W' : 'B';
  renderBoard();
}

function editorFen() {
  const w = [], b = [];
  for (const [sq, p] of Object.entries(ui.editing.pieces)) {
    const t = (p === p.toUpperCase() ? 'K' : '') + sq;
    (p.toLowerCase() === 'w' ? w : b).push(t);
  }
  return $('edit-side').value + ':W' + w.join(',') + ':B' + b.join(',');
}

// ---- Move list, clocks, analysis, graph -----------------------------------------------------

function renderMoves() {
  const box = $('moves');
  box.textContent = '';
  const s = ui.state;
  const blackFirst = s.first_side === 'black';
  let row = null;
  s.moves.forEach((text, i) => {
    const k = i + (blackFirst ? 1 : 0);
    if (k % 2 === 0 || !row) {
      row = document.createElement('div');
      const num = document.createElement('span');
      num.className = 'num';
      num.textContent = (Math.floor(k / 2) + 1) + '.';
      row.appendChild(num);
      if (k % 2 === 1) {
        const gap = document.createElement('span');
        gap.className = 'mv';
        gap.textContent = '...';
        row.appendChild(gap);
      }
      box.appendChild(row);
    }
    const mv = document.createElement('span');
    const fromBook = (s.book_plies || []).includes(i + 1);
    mv.className = 'mv' + (i + 1 === s.ply ? ' current' : '') + (fromBook ? ' book' : '');
    mv.textContent = text;
    if (fromBook) mv.title = 'from the engine\'s opening book';
    mv.setAttribute('data-ply', i + 1);
    mv.onclick = () => api('goto', { ply: i + 1 });
    row.appendChild(mv);
  });
  const cur = box.querySelector('.current');
  if (cur) cur.scrollIntoView({ block: 'nearest' });
}

function clockText(ms) {
  if (ms < 0) ms = 0;
  const t = Math.floor(ms / 100), m = Math.floor(t / 600), sec = Math.floor(t / 10) % 60;
  return m + ':' + String(sec).padStart(2, '0') + '.' + (t % 10);
}

function renderClocks() {
  const s = ui.state;
  const top = ui.flipped ? 'white' : 'black', bottom = ui.flipped ? 'black' : 'white';
  for (const [id, side] of [['clock-top', top], ['clock-bottom', bottom]]) {
    const e = $(id);
    if (!s.play.clocked || s.play.engine === 'none') { e.textContent = ''; e.className = 'clock'; continue; }
    let ms = s.clocks[side];
    if (s.clocks.running === side) ms -= performance.now() - ui.stateAt;
    e.textContent = (side === 'white' ? 'White ' : 'Black ') + clockText(ms);
    e.className = 'clock' + (s.clocks.running === side ? ' running' : '');
  }
}

// A score of the side to move as text for people: men, or a win in N moves.
function scoreText(line) {
  if (line.mate) return line.score > 0 ? 'win in ' + line.score : 'loss in ' + (-line.score);
  // Damka scores a win its endgame databases know at 29872..30248 centi-men.
  if (Math.abs(line.score) >= 29800) return line.score > 0 ? 'database win' : 'database loss';
  const v = line.score / 100;
  return (v > 0 ? '+' : '') + v.toFixed(2);
}

function renderAnalysis() {
  const box = $('analysis');
  box.textContent = '';
  const s = ui.state;
  if (!ui.lines.length) {
    box.textContent = s && s.analysing ? 'analysing...' : 'Press Analyse, or play against the engine.';
    return;
  }
  for (const l of ui.lines) {
    const d = document.createElement('div');
    d.className = 'line';
    const score = document.createElement('span');
    score.className = 'score';
    score.textContent = scoreText(l);
    const info = document.createElement('span');
    info.className = 'info';
    info.textContent = ' depth ' + l.depth + '  ' + Math.round(l.nps / 1000) + ' kN/s  ';
    const pv = document.createElement('span');
    pv.className = 'pv';
    pv.textContent = l.pv;
    d.append(score, info, pv);
    box.appendChild(d);
  }
}

// The opening book's moves for the shown position: share of the weight, learned score (side to
// move's view, as in the analysis) and the results of the games that played each. A click
// plays the move.
function renderBook() {
  const box = $('book');
  box.textContent = '';
  const s = ui.state;
  const moves = (s && s.book) || [];
  $('book-count').textContent = moves.length ? '(' + moves.length + ')' : '';
  if (!moves.length) {
    box.textContent = 'No book move for this position.';
    return;
  }
  const total = moves.reduce((a, m) => a + m.weight, 0) || 1;
  for (const m of moves) {
    const d = document.createElement('div');
    d.className = 'line book-move';
    const mv = document.createElement('span');
    mv.className = 'mv';
    mv.textContent = m.move;
    const info = document.createElement('span');
    info.className = 'info';
    const games = m.wins + m.draws + m.losses;
    info.textContent = ' ' + Math.round(100 * m.weight / total) + '%  ' +
      scoreText({ mate: false, score: m.score }) +
      (games ? '  games +' + m.wins + ' =' + m.draws + ' -' + m.losses : '');
    d.append(mv, info);
    d.title = 'Play ' + m.move;
    d.onclick = () => api('move', { move: m.move });
    box.appendChild(d);
  }
}

function renderGraph() {
  const svg = $('graph');
  svg.textContent = '';
  const s = ui.state, n = s.scores.length;
  const W = 440, H = 100, CAP = 500;
  const x = (i) => (n <= 1 ? 0 : (i * W) / (n - 1));
  const y = (v) => H / 2 - (Math.max(-CAP, Math.min(CAP, v)) * (H / 2 - 4)) / CAP;
  el('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, stroke: '#aaa' }, svg);
  const pts = [];
  s.scores.forEach((v, i) => { if (v !== null) pts.push(x(i) + ',' + y(v)); });
  if (pts.length) el('polyline', { points: pts.join(' '), fill: 'none', stroke: '#3b2f2a', 'stroke-width': 2 }, svg);
  el('line', { x1: x(s.ply), y1: 0, x2: x(s.ply), y2: H, stroke: '#c62828' }, svg);
  svg.onclick = (ev) => {
    const r = svg.getBoundingClientRect();
    const ply = Math.round(((ev.clientX - r.left) / r.width) * (n - 1));
    if (ply >= 0 && ply < n) api('goto', { ply });
  };
}

function renderResult() {
  const s = ui.state;
  const r = $('result');
  if (s.result !== '*') r.textContent = s.result + ' \u2014 ' + s.reason;
  else r.textContent = (s.turn === 'white' ? 'White' : 'Black') + ' to move';
}

function render() {
  const s = ui.state;
  if (!s) return;
  renderBoard();
  renderMoves();
  renderClocks();
  renderAnalysis();
  renderBook();
  renderGraph();
  renderResult();
  $('engine-name').textContent = s.engine.name || s.engine.command;
  $('engine-status').textContent = s.engine.status + (s.engine.expected ? ' on ' + s.engine.expected : '');
  const msg = $('engine-message');
  msg.textContent = s.engine.message;
  msg.hidden = !s.engine.message;
  $('current-fen').textContent = s.fen;
  $('analyse').textContent = s.analysing ? 'Stop analysis' : 'Analyse';
  for (const k of ['hash', 'threads', 'multipv']) {
    const i = $('opt-' + k);
    if (document.activeElement !== i) i.value = s.options[k];
  }
  const lib = $('library');
  lib.textContent = '';
  s.library.forEach((g, i) => {
    const li = document.createElement('li');
    li.textContent = (g.white || '?') + ' - ' + (g.black || '?') + ' ' + (g.result || '') +
                     (g.event ? ' (' + g.event + ')' : '') + ', ' + g.plies + ' plies';
    li.onclick = () => api('load', { index: i });
    lib.appendChild(li);
  });
}

// ---- Controls -------------------------------------------------------------------------------

function gotoPly(p) {
  const s = ui.state;
  if (s && p >= 0 && p <= s.moves.length && p !== s.ply) api('goto', { ply: p });
}

function wire() {
  const board = $('board');
  board.addEventListener('pointerdown', (ev) => {
    const sq = squareOf(ev);
    ui.drag = sq;
    onSquare(sq);
  });
  board.addEventListener('pointerup', (ev) => {
    const sq = squareOf(ev);
    if (ui.drag && sq && sq !== ui.drag && ui.selection.length) onSquare(sq);
    ui.drag = null;
  });
  $('flip').onclick = () => { ui.flipped = !ui.flipped; render(); };
  $('first').onclick = () => gotoPly(0);
  $('back').onclick = () => gotoPly(ui.state.ply - 1);
  $('forward').onclick = () => gotoPly(ui.state.ply + 1);
  $('last').onclick = () => gotoPly(ui.state.moves.length);
  $('takeback').onclick = () => api('takeback');
  document.addEventListener('keydown', (ev) => {
    if (ev.target.tagName === 'INPUT' || ev.target.tagName === 'TEXTAREA') return;
    const s = ui.state;
    if (!s) return;
    if (ev.key === 'ArrowLeft') gotoPly(s.ply - 1);
    else if (ev.key === 'ArrowRight') gotoPly(s.ply + 1);
    else if (ev.key === 'Home') gotoPly(0);
    else if (ev.key === 'End') gotoPly(s.moves.length);
    else if (ev.key === 'f') { ui.flipped = !ui.flipped; render(); }
    else return;
    ev.preventDefault();
  });
  $('new-game').onclick = () => api('new');
  $('set-fen').onclick = () => api('new', { fen: $('fen').value.trim() });
  $('edit').onclick = () => startEditing(true);
  $('edit-cancel').onclick = () => startEditing(false);
  $('edit-clear').onclick = () => { ui.editing.pieces = {}; renderBoard(); };
  $('edit-start').onclick = () => {
    const p = {};
    for (let r = 0; r < 8; r++)
      for (let f = 0; f < 8; f++)
        if ((f + r) % 2 === 0 && (r < 3 || r > 4)) p[FILES[f] + (r + 1)] = r < 3 ? 'w' : 'b';
    ui.editing.pieces = p;
    $('edit-side').value = 'W';
    renderBoard();
  };
  $('edit-done').onclick = async () => {
    const fen = editorFen();
    if (await api('new', { fen })) startEditing(false);
  };
  $('play').onclick = () => {
    const params = { side: $('play-side').value, ponder: $('ponder').checked ? 'true' : 'false' };
    if ($('tc-move').checked) params.movetime = $('tc-movetime').value;
    else { params.base = String(Number($('tc-base').value) * 60); params.inc = $('tc-inc').value; }
    api('play', params);
  };
  $('stop-play').onclick = () => api('play', { side: 'none' });
  $('analyse').onclick = () => api('analyse', { on: ui.state.analysing ? 'false' : 'true' });
  $('apply-options').onclick = () => api('options', {
    hash: $('opt-hash').value, threads: $('opt-threads').value, multipv: $('opt-multipv').value });
  $('pdn-import').onclick = () => api('pdn', {}, $('pdn-text').value);
  $('pdn-file').onchange = () => {
    const f = $('pdn-file').files[0];
    if (!f) return;
    const reader = new FileReader();
    reader.onload = () => { $('pdn-text').value = reader.result; api('pdn', {}, reader.result); };
    reader.readAsText(f);
  };
  setInterval(() => { if (ui.state) renderClocks(); }, 100);
}

wire();
fetch('/api/state').then((r) => r.json()).then(setState).catch((e) => showError(String(e)));
connect();
