// SPDX-License-Identifier: MIT
// damka-gui's page: draws the state the server sends (board, moves, clocks, analysis, book,
// graph) and turns clicks into API calls. It knows no rule of the game: legal moves, notation,
// results, draws and the positions of a previewed line all come from the server, which has
// them from the engine library. Every score is shown from White's side.
'use strict';

const FILES = 'abcdefgh';
const SQ = 50, MARGIN = 20;
const svgNS = 'http://www.w3.org/2000/svg';
const WIN = 10000;            // the graph's score of a won position, less the moves to the win
const DB_WIN = 29800;         // Damka's scores of database wins start here
const SCALE_CP = 200;         // win chances 2 / (1 + e^(-cp / 200)) - 1, as the server's marks
const PV_SHOWN = 16;          // plies of a line shown before "more"

const ui = {
  state: null,          // the server's last state
  lines: [],            // analysis lines of the last info event
  flipped: false,
  selection: [],        // squares clicked so far of the move being entered
  drag: null,           // {from, moved} while a piece is dragged
  editing: null,        // board editor: {pieces, side}
  preview: null,        // a line previewed on the board: {pieces, last, text}
  flash: [],            // squares to point at for a moment (a compulsory capture)
  hint: '',
  formDirty: false,     // the play form was changed and not yet applied
  longPv: {},           // lines shown whole
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

function html(tag, cls, text, parent) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
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
  if (!old || old.fen !== s.fen || old.ply !== s.ply) {
    ui.selection = [];
    ui.preview = null;
    ui.longPv = {};
    if (old) setHint('');
  }
  if (!s.analysing && s.engine.status !== 'thinking') ui.lines = [];
  render();
}

function connect() {
  const es = new EventSource('/api/events');
  es.addEventListener('state', (ev) => setState(JSON.parse(ev.data)));
  es.addEventListener('info', (ev) => {
    ui.lines = JSON.parse(ev.data).lines;
    renderAnalysis();
    renderBoard();
    renderEvalBar();
  });
  es.onerror = () => { $('engine-status').textContent = '(reconnecting to the server...)'; };
}

// ---- Scores, all from White's side ------------------------------------------------------------

// A line's score turned to White's side: {mate, score}.
function whiteView(line) {
  const sign = line.pov === 'black' ? -1 : 1;
  return { mate: line.mate, score: sign * line.score };
}

function menText(cp) {
  const v = cp / 100;
  if (Math.abs(v) < 0.005) return '0.00';
  return (v > 0 ? '+' : '\u2212') + Math.abs(v).toFixed(2);
}

// A White's-side score as text: men, "White wins in N", or a database win.
function scoreText(v) {
  if (v.mate) return (v.score > 0 ? 'White' : 'Black') + ' wins in ' + Math.abs(v.score);
  if (Math.abs(v.score) >= DB_WIN) return (v.score > 0 ? 'White' : 'Black') + ' wins (database)';
  return menText(v.score);
}

// The graph's White's-side score (mates as +-WIN less the distance) as text.
function graphScoreText(cp) {
  if (Math.abs(cp) >= WIN - 1000 && Math.abs(cp) < DB_WIN)
    return scoreText({ mate: true, score: cp > 0 ? WIN - cp : -WIN - cp });
  return scoreText({ mate: false, score: cp });
}

// White's chances, -1..1, of a graph score.
function chances(cp) {
  if (Math.abs(cp) >= WIN - 1000) return cp > 0 ? 1 : -1;
  return 2 / (1 + Math.exp(-cp / SCALE_CP)) - 1;
}

function lineChances(v) {
  if (v.mate || Math.abs(v.score) >= DB_WIN) return v.score > 0 ? 1 : -1;
  return chances(v.score);
}

function depthText(d) { return d >= 100 ? 'solved' : 'depth ' + d; }

// ---- The board ------------------------------------------------------------------------------

function squareXY(name) {
  const f = FILES.indexOf(name[0]), r = Number(name[1]) - 1;
  const x = ui.flipped ? 7 - f : f, y = ui.flipped ? r : 7 - r;
  return [MARGIN + x * SQ, MARGIN + y * SQ];
}

function shownPieces() {
  if (ui.editing) return ui.editing.pieces;
  if (ui.preview) return ui.preview.pieces;
  return ui.state.pieces;
}

// The legal moves that begin with the squares entered so far.
function candidates(prefix) {
  return ui.state.legal.filter((m) => prefix.every((sq, i) => m.path[i] === sq));
}

// True when the person may move on the board now (not the engine's turn, no preview or editor).
function personMoves() {
  const s = ui.state;
  if (!s || ui.editing || ui.preview || !s.legal.length) return false;
  const atEnd = s.ply === s.moves.length;
  const eng = s.play.engine;
  return !(atEnd && (eng === 'both' || eng === s.turn));
}

// Draws a man or a king (a crowned piece) centred at cx, cy.
function drawPiece(svg, p, cx, cy, extra) {
  const side = p.toLowerCase();
  const g = el('g', { class: 'pc' + (extra ? ' ' + extra : '') }, svg);
  el('circle', { cx, cy, r: SQ * 0.4, class: 'piece ' + side + (extra ? ' ' + extra : ''),
                 'data-piece': p }, g);
  el('circle', { cx, cy, r: SQ * 0.28, class: 'piece-ring ' + side }, g);
  if (p === 'W' || p === 'B') {
    const s = SQ / 50;
    const pts = [[-12, 6], [-12, -4], [-6, 1], [0, -9], [6, 1], [12, -4], [12, 6]]
      .map(([x, y]) => (cx + x * s) + ',' + (cy + y * s)).join(' ');
    el('polygon', { points: pts, class: 'crown' }, g);
  }
  return g;
}

function renderBoard() {
  const svg = $('board');
  svg.textContent = '';
  const s = ui.state;
  const pieces = shownPieces();
  const lastMove = ui.editing ? [] : ui.preview ? ui.preview.last : (s.ply > 0 ? lastMovePath() : []);
  const next = new Set();
  if (ui.selection.length) {
    for (const m of candidates(ui.selection))
      if (m.path.length > ui.selection.length) next.add(m.path[ui.selection.length]);
    for (const m of candidates(ui.selection.slice(0, 1))) next.add(m.path[m.path.length - 1]);
  }
  // A compulsory capture: the pieces that can take are ringed while the person is to move.
  const must = new Set();
  if (personMoves() && s.legal.length && s.legal.every((m) => m.captures > 0))
    for (const m of s.legal) must.add(m.path[0]);
  for (let r = 0; r < 8; r++) {
    for (let f = 0; f < 8; f++) {
      const name = FILES[f] + (r + 1);
      const [x, y] = squareXY(name);
      const dark = (f + r) % 2 === 0;
      const rect = el('rect', { x, y, width: SQ, height: SQ, class: dark ? 'sq-dark' : 'sq-light' }, svg);
      if (!dark) continue;
      rect.setAttribute('data-square', name);
      if (ui.selection.includes(name)) rect.classList.add('selected');
      else if (lastMove.includes(name)) rect.classList.add('last');
      const p = pieces[name];
      if (p) {
        const lifted = ui.drag && ui.drag.moved && ui.drag.from === name;
        drawPiece(svg, p, x + SQ / 2, y + SQ / 2, lifted ? 'lifted' : '');
        if (must.has(name) && !ui.selection.length)
          el('circle', { cx: x + SQ / 2, cy: y + SQ / 2, r: SQ * 0.46, class: 'must-capture' }, svg);
      }
      if (ui.flash.includes(name))
        el('circle', { cx: x + SQ / 2, cy: y + SQ / 2, r: SQ * 0.46, class: 'flash' }, svg);
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
  if (best && best.from && !ui.editing && !ui.preview) {
    const [x1, y1] = squareXY(best.from), [x2, y2] = squareXY(best.to);
    const defs = el('defs', {}, svg);
    const mk = el('marker', { id: 'head', markerWidth: 4, markerHeight: 4, refX: 2, refY: 2,
                              orient: 'auto', markerUnits: 'strokeWidth' }, defs);
    el('path', { d: 'M0,0 L4,2 L0,4 z', fill: 'var(--arrow)' }, mk);
    el('line', { x1: x1 + SQ / 2, y1: y1 + SQ / 2, x2: x2 + SQ / 2, y2: y2 + SQ / 2,
                 class: 'arrow', 'marker-end': 'url(#head)', id: 'best-arrow' }, svg);
  }
  if (ui.drag && ui.drag.moved && pieces[ui.drag.from]) {
    const g = drawPiece(svg, pieces[ui.drag.from], ui.drag.x, ui.drag.y);
    g.id = 'drag-ghost';
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

function setHint(text, squares) {
  ui.hint = text;
  $('hint').textContent = text;
  ui.flash = squares || [];
  if (squares && squares.length) {
    renderBoard();
    setTimeout(() => { ui.flash = []; if (ui.state) renderBoard(); }, 1600);
  }
}

// A click (or the end of a drag) on a square.
function onSquare(name) {
  if (!name || !ui.state) return;
  if (ui.editing) return editSquare(name);
  if (ui.preview) return exitPreview();
  $('routes').hidden = true;
  const s = ui.state;
  if (!personMoves()) {
    if (s.legal.length && s.ply === s.moves.length) setHint('The engine is to move: wait for its reply.');
    return;
  }
  if (!ui.selection.length) {
    if (candidates([name]).length) {
      ui.selection = [name];
      setHint('');
    } else if (s.pieces[name] && s.pieces[name].toLowerCase() === s.turn[0]) {
      const takers = [...new Set(s.legal.filter((m) => m.captures > 0).map((m) => m.path[0]))];
      if (takers.length) setHint('A capture is compulsory: take with a marked piece.', takers);
      else setHint('This piece cannot move.');
    } else if (s.pieces[name]) {
      setHint((s.turn === 'white' ? 'White' : 'Black') + ' is to move.');
    }
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
    const b = html('button', 'route', m.text, box);
    b.onclick = () => { box.hidden = true; play(m); };
  }
  box.hidden = false;
}

function play(move) {
  ui.selection = [];
  setHint('');
  const s = ui.state;
  if (s.play.engine !== 'none') ui.sentAt = { time: performance.now(), plies: s.ply + 1 };
  api('move', { move: move.text });
}

// ---- A line previewed on the board ------------------------------------------------------------

async function previewLine(moves, label) {
  const q = new URLSearchParams({ moves: moves.join(' ') }).toString();
  let res, data = null;
  try {
    res = await fetch('/api/preview?' + q);
    data = await res.json();
  } catch (e) {
    return showError('the server does not answer: ' + e);
  }
  if (!res.ok) return showError((data && data.error) || ('HTTP ' + res.status));
  ui.preview = { pieces: data.pieces, last: data.last, text: label };
  ui.selection = [];
  $('preview-text').textContent = 'Line: ' + label;
  $('preview-bar').hidden = false;
  renderBoard();
}

function exitPreview() {
  ui.preview = null;
  $('preview-bar').hidden = true;
  renderBoard();
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
  ui.preview = null;
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

// ---- Move list ------------------------------------------------------------------------------

const GLYPH = { inaccuracy: '?!', mistake: '?', blunder: '??' };

// Move numbering: the number of the move played at ply p (0-based), and whether White plays it.
function moveNumber(p) {
  const k = p + (ui.state.first_side === 'black' ? 1 : 0);
  return { n: Math.floor(k / 2) + 1, white: k % 2 === 0 };
}

function renderMoves() {
  const box = $('moves');
  box.textContent = '';
  const s = ui.state;
  const marks = {};
  for (const m of s.marks || []) marks[m.ply] = m.kind;
  const notes = {};
  for (const c of s.comments || []) notes[c.ply] = c.text;
  const bookPlies = new Set(s.book_plies || []);
  let row = null;
  if (notes[0]) html('div', 'note', notes[0], box);
  s.moves.forEach((text, i) => {
    const { n, white } = moveNumber(i);
    if (white || !row) {
      row = html('div', 'mrow', undefined, box);
      html('span', 'num', n + (white ? '.' : '...'), row);
    }
    const mv = html('span', 'mv' + (i + 1 === s.ply ? ' current' : '') + (bookPlies.has(i + 1) ? ' book' : ''),
                    text, row);
    mv.setAttribute('data-ply', i + 1);
    if (bookPlies.has(i + 1)) mv.title = 'from the engine\'s opening book';
    if (marks[i + 1]) {
      const g = html('span', 'glyph mark-key ' + marks[i + 1], GLYPH[marks[i + 1]], mv);
      g.title = marks[i + 1];
    }
    mv.onclick = () => api('goto', { ply: i + 1 });
    if (notes[i + 1]) {
      html('span', 'note', notes[i + 1], row);
      row = null; // the next move starts a row of its own
    }
    (s.side_lines || []).forEach((l, index) => {
      if (l.ply !== i) return;
      // A side line: the moves played here before another was; a click makes it the game's.
      const words = l.moves.map((t, j) => {
        const { n, white } = moveNumber(l.ply + j);
        return white ? n + '. ' + t : j === 0 ? n + '... ' + t : t;
      });
      const d = html('div', 'side-line', '(' + words.join(' ') + ')', box);
      d.title = 'a side line: click to make it the game\'s line';
      d.onclick = () => api('side-line', { index });
      row = null;
    });
  });
  // Only the move box scrolls to the current move, never the page.
  const cur = box.querySelector('.current');
  if (cur) {
    const top = cur.offsetTop - box.offsetTop, h = box.clientHeight;
    if (top < box.scrollTop || top + cur.offsetHeight > box.scrollTop + h)
      box.scrollTop = Math.max(0, top - h / 2);
  } else if (s.ply === 0) {
    box.scrollTop = 0;
  }
  const c = $('comment');
  c.textContent = notes[s.ply] || '';
  c.hidden = !notes[s.ply];
  const r = s.record || {};
  $('record-line').textContent = r.imported
    ? [(r.white || '?') + ' \u2013 ' + (r.black || '?'), r.event, r.date].filter(Boolean).join(', ')
    : '';
}

// ---- Clocks, analysis, book, graph ------------------------------------------------------------

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
    const shown = s.play.clocked && s.play.engine !== 'none';
    e.hidden = !shown;
    if (!shown) continue;
    let ms = s.clocks[side];
    if (s.clocks.running === side) ms -= performance.now() - ui.stateAt;
    e.textContent = (side === 'white' ? 'White ' : 'Black ') + clockText(ms);
    e.className = 'clock' + (s.clocks.running === side ? ' running' : '');
  }
}

// The moves of a line as numbered, clickable words; a click previews the line to that move.
function renderPv(line, box) {
  const moves = line.pv ? line.pv.split(' ') : [];
  const start = ui.state.ply;
  const whole = ui.longPv[line.multipv] || moves.length <= PV_SHOWN + 2;
  const shown = whole ? moves : moves.slice(0, PV_SHOWN);
  let label = '';
  shown.forEach((mv, k) => {
    const { n, white } = moveNumber(start + k);
    let num = '';
    if (white) num = n + '.';
    else if (k === 0) num = n + '...';
    if (num) html('span', 'pvnum', num, box);
    label += (num ? num + ' ' : '') + mv + ' ';
    const span = html('span', 'pvmv', mv, box);
    const upto = moves.slice(0, k + 1), text = label.trim();
    span.title = 'Show the position after ' + mv;
    span.onclick = () => previewLine(upto, text);
    box.appendChild(document.createTextNode(' '));
  });
  if (!whole) {
    const more = html('span', 'more', '\u2026 ' + (moves.length - PV_SHOWN) + ' more', box);
    more.onclick = () => { ui.longPv[line.multipv] = true; renderAnalysis(); };
  }
}

function renderAnalysis() {
  const box = $('analysis');
  box.textContent = '';
  const s = ui.state;
  if (!ui.lines.length) {
    box.textContent = s && s.analysing ? 'analysing\u2026'
      : 'Press Analyse for the best lines here, or play the engine.';
    return;
  }
  for (const l of ui.lines) {
    const d = html('div', 'line', undefined, box);
    html('span', 'score', scoreText(whiteView(l)), d);
    html('span', 'info', depthText(l.depth) + ' \u00b7 ' + Math.round(l.nps / 1000) + ' kN/s', d);
    renderPv(l, html('span', 'pv', undefined, d));
  }
}

// The evaluation bar: the best line's score, else the graph's score of the shown position.
function renderEvalBar() {
  const s = ui.state;
  const best = ui.lines.find((l) => l.multipv === 1);
  let c = 0, text = '';
  if (best) {
    const v = whiteView(best);
    c = lineChances(v);
    text = v.mate || Math.abs(v.score) >= DB_WIN ? (v.score > 0 ? 'W' : 'B') : menText(v.score);
  } else if (s.scores && s.scores[s.ply] !== null && s.scores[s.ply] !== undefined) {
    c = chances(s.scores[s.ply]);
    text = Math.abs(s.scores[s.ply]) >= WIN - 1000 ? (s.scores[s.ply] > 0 ? 'W' : 'B')
      : menText(s.scores[s.ply]);
  }
  // Black's share from the top (White at the bottom unless the board is turned).
  const black = (1 - c) / 2;
  const bar = $('evalbar-black');
  bar.style.height = (100 * (ui.flipped ? 1 - black : black)).toFixed(1) + '%';
  bar.style.background = ui.flipped ? 'var(--white-piece)' : 'var(--black-piece)';
  $('evalbar').style.background = ui.flipped ? 'var(--black-piece)' : 'var(--white-piece)';
  $('evalbar-text').textContent = text;
  $('evalbar').title = 'Evaluation from White\'s side: ' + (text || 'none yet');
}

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
  const sign = s.turn === 'white' ? 1 : -1; // the book scores for the mover
  for (const m of moves) {
    const d = html('div', 'line book-move', undefined, box);
    html('span', 'mv', m.move, d);
    html('span', 'info', Math.round(100 * m.weight / total) + '%', d);
    html('span', 'info', scoreText({ mate: false, score: sign * m.score }), d);
    const games = m.wins + m.draws + m.losses;
    if (games) html('span', 'info', 'games +' + m.wins + ' =' + m.draws + ' \u2212' + m.losses, d);
    d.title = 'Play ' + m.move;
    d.onclick = () => api('move', { move: m.move });
  }
}

const G = { W: 600, H: 150, L: 34, R: 8, T: 8, B: 8 };

function renderGraph() {
  const svg = $('graph');
  svg.textContent = '';
  const s = ui.state, n = s.scores.length;
  const x = (i) => G.L + (n <= 1 ? 0 : (i * (G.W - G.L - G.R)) / (n - 1));
  const mid = G.T + (G.H - G.T - G.B) / 2, amp = (G.H - G.T - G.B) / 2;
  const y = (cp) => mid - chances(cp) * amp;
  // The scale: 0, 1, 2 and 5 men either way.
  for (const men of [5, 2, 1, -1, -2, -5]) {
    el('line', { x1: G.L, y1: y(men * 100), x2: G.W - G.R, y2: y(men * 100), class: 'g-grid' }, svg);
    el('text', { x: 4, y: y(men * 100) + 4, class: 'g-label' }, svg)
      .textContent = (men > 0 ? '+' : '\u2212') + Math.abs(men);
  }
  el('text', { x: 12, y: mid + 4, class: 'g-label' }, svg).textContent = '0';
  const pts = [];
  s.scores.forEach((v, i) => { if (v !== null) pts.push([x(i), y(v)]); });
  if (pts.length) {
    const defs = el('defs', {}, svg);
    const above = el('clipPath', { id: 'g-above' }, defs);
    el('rect', { x: 0, y: 0, width: G.W, height: mid }, above);
    const below = el('clipPath', { id: 'g-below' }, defs);
    el('rect', { x: 0, y: mid, width: G.W, height: G.H - mid }, below);
    const area = 'M' + pts[0][0] + ',' + mid + ' ' + pts.map((p) => 'L' + p[0] + ',' + p[1]).join(' ') +
                 ' L' + pts[pts.length - 1][0] + ',' + mid + ' Z';
    el('path', { d: area, class: 'g-white', 'clip-path': 'url(#g-above)' }, svg);
    el('path', { d: area, class: 'g-black', 'clip-path': 'url(#g-below)' }, svg);
    el('polyline', { points: pts.map((p) => p.join(',')).join(' '), class: 'g-line' }, svg);
  } else {
    el('text', { x: G.L + 10, y: mid - 10, class: 'g-empty' }, svg).textContent =
      'No scores yet: play the engine, analyse, or analyse the whole game.';
  }
  el('line', { x1: G.L, y1: mid, x2: G.W - G.R, y2: mid, class: 'g-axis' }, svg);
  for (const m of s.marks || [])
    if (s.scores[m.ply] !== null)
      el('circle', { cx: x(m.ply), cy: y(s.scores[m.ply]), r: 4, class: 'mark-' + m.kind }, svg);
  el('line', { x1: x(s.ply), y1: G.T, x2: x(s.ply), y2: G.H - G.B, class: 'g-cursor' }, svg);
  svg.onclick = (ev) => {
    const r = svg.getBoundingClientRect();
    const gx = ((ev.clientX - r.left) / r.width) * G.W;
    const ply = Math.round(((gx - G.L) / (G.W - G.L - G.R)) * (n - 1));
    if (ply >= 0 && ply < n) api('goto', { ply });
  };
}

// The moves the analysis marked, as a list to jump to.
function renderMarks() {
  const box = $('marks');
  box.textContent = '';
  const s = ui.state;
  const ga = s.game_analysis;
  const prog = $('ga-progress');
  prog.hidden = !ga.running;
  if (ga.running)
    prog.textContent = 'Analysing the game: position ' + Math.min(ga.next + 1, ga.total) + ' of ' + ga.total +
                       ' at ' + (ga.movetime / 1000) + ' s each\u2026';
  $('analyse-game').textContent = ga.running ? 'Stop the game analysis' : 'Analyse the whole game';
  for (const m of s.marks || []) {
    const { n, white } = moveNumber(m.ply - 1);
    const text = n + (white ? '. ' : '... ') + s.moves[m.ply - 1] + GLYPH[m.kind];
    const span = html('span', 'mk mark-key ' + m.kind, text, box);
    span.title = m.kind + ': ' + graphScoreText(s.scores[m.ply - 1]) + ' \u2192 ' + graphScoreText(s.scores[m.ply]);
    span.onclick = () => api('goto', { ply: m.ply });
  }
}

function renderResult() {
  const s = ui.state;
  const r = $('result');
  const atEnd = s.ply === s.moves.length;
  const turn = (s.turn === 'white' ? 'White' : 'Black') + ' to move';
  if (atEnd && s.result !== '*') r.textContent = s.result + ' \u2014 ' + s.reason;
  else if (atEnd && s.record && s.record.result && s.record.result !== '*')
    r.textContent = s.record.result + ' (as the game record says)';
  else if (atEnd && s.engine.status === 'thinking') r.textContent = turn + ' \u2014 the engine is thinking';
  else r.textContent = turn;
}

// The play form shows the server's settings unless the person is changing them.
function renderPlayForm() {
  const p = ui.state.play;
  if (ui.formDirty) return;
  $('play-side').value = p.engine;
  $('tc-move').checked = !p.clocked;
  $('tc-clock').checked = p.clocked;
  $('tc-movetime').value = String(p.movetime / 1000);
  $('tc-base').value = String(p.base / 60000);
  $('tc-inc').value = String(p.inc / 1000);
  $('ponder').checked = p.ponder;
  const level = $('play-level');
  if (![...level.options].some(o => Number(o.value) === p.level)) {
    const o = document.createElement('option');   // a level set through the API
    o.value = String(p.level);
    o.textContent = 'Level ' + p.level;
    level.appendChild(o);
  }
  level.value = String(p.level);
}

function render() {
  const s = ui.state;
  if (!s) return;
  renderBoard();
  renderMoves();
  renderClocks();
  renderAnalysis();
  renderEvalBar();
  renderBook();
  renderGraph();
  renderMarks();
  renderResult();
  renderPlayForm();
  $('engine-name').textContent = s.engine.name || s.engine.command;
  $('engine-status').textContent = s.engine.status + (s.engine.expected ? ' on ' + s.engine.expected : '');
  const msg = $('engine-message');
  msg.textContent = s.engine.message;
  msg.hidden = !s.engine.message || s.engine.message === 'starting';
  $('current-fen').textContent = s.fen;
  $('analyse').textContent = s.analysing ? 'Stop analysis' : 'Analyse';
  for (const k of ['hash', 'threads', 'multipv']) {
    const i = $('opt-' + k);
    if (document.activeElement !== i) i.value = s.options[k];
  }
  const lib = $('library');
  lib.textContent = '';
  s.library.forEach((g, i) => {
    const li = html('li', '', (g.white || '?') + ' \u2013 ' + (g.black || '?') + ' ' + (g.result || '') +
                    (g.event ? ' (' + g.event + ')' : '') + ', ' + g.plies + ' plies', lib);
    li.onclick = () => api('load', { index: i });
  });
}

// ---- Controls -------------------------------------------------------------------------------

function gotoPly(p) {
  const s = ui.state;
  if (s && p >= 0 && p <= s.moves.length && p !== s.ply) api('goto', { ply: p });
}

function playParams() {
  const params = { side: $('play-side').value, ponder: $('ponder').checked ? 'true' : 'false',
                   level: $('play-level').value };
  if ($('tc-move').checked) params.movetime = $('tc-movetime').value;
  else { params.base = String(Number($('tc-base').value) * 60); params.inc = $('tc-inc').value; }
  return params;
}

// Pointer handling: a click selects and moves; a drag carries the piece under the pointer.
function svgPoint(ev) {
  const svg = $('board');
  const pt = svg.createSVGPoint();
  pt.x = ev.clientX;
  pt.y = ev.clientY;
  const m = svg.getScreenCTM();
  return m ? pt.matrixTransform(m.inverse()) : { x: 0, y: 0 };
}

function wireBoard() {
  const board = $('board');
  board.addEventListener('pointerdown', (ev) => {
    const sq = squareOf(ev);
    const had = ui.selection.length;
    onSquare(sq);
    // A drag starts from a piece just selected.
    if (sq && !had && ui.selection.length === 1 && ui.selection[0] === sq) {
      const p = svgPoint(ev);
      ui.drag = { from: sq, moved: false, x: p.x, y: p.y, sx: ev.clientX, sy: ev.clientY };
      board.setPointerCapture(ev.pointerId);
    }
  });
  board.addEventListener('pointermove', (ev) => {
    if (!ui.drag) return;
    if (!ui.drag.moved && Math.hypot(ev.clientX - ui.drag.sx, ev.clientY - ui.drag.sy) < 4) return;
    const p = svgPoint(ev);
    ui.drag.moved = true;
    ui.drag.x = p.x;
    ui.drag.y = p.y;
    renderBoard();
  });
  const end = (ev) => {
    if (!ui.drag) return;
    const d = ui.drag;
    ui.drag = null;
    const sq = squareOf(ev);
    if (d.moved && sq && sq !== d.from && ui.selection.length) onSquare(sq);
    else renderBoard();
  };
  board.addEventListener('pointerup', end);
  board.addEventListener('pointercancel', () => { ui.drag = null; renderBoard(); });
}

function wire() {
  wireBoard();
  $('flip').onclick = () => { ui.flipped = !ui.flipped; render(); };
  $('first').onclick = () => gotoPly(0);
  $('back').onclick = () => gotoPly(ui.state.ply - 1);
  $('forward').onclick = () => gotoPly(ui.state.ply + 1);
  $('last').onclick = () => gotoPly(ui.state.moves.length);
  $('takeback').onclick = () => api('takeback');
  $('preview-exit').onclick = exitPreview;
  document.addEventListener('keydown', (ev) => {
    const tag = ev.target.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return;
    const s = ui.state;
    if (!s) return;
    if (ev.key === 'ArrowLeft') gotoPly(s.ply - 1);
    else if (ev.key === 'ArrowRight') gotoPly(s.ply + 1);
    else if (ev.key === 'Home') gotoPly(0);
    else if (ev.key === 'End') gotoPly(s.moves.length);
    else if (ev.key === 'f') { ui.flipped = !ui.flipped; render(); }
    else if (ev.key === 'Escape' && ui.preview) exitPreview();
    else return;
    ev.preventDefault();
  });
  for (const id of ['play-side', 'play-level', 'tc-move', 'tc-clock', 'tc-movetime', 'tc-base', 'tc-inc', 'ponder'])
    $(id).addEventListener('input', () => { ui.formDirty = true; });
  $('play').onclick = async () => { ui.formDirty = false; await api('play', playParams()); };
  $('play-new').onclick = async () => {
    const params = playParams();
    ui.formDirty = false;
    if (await api('new')) await api('play', params);
  };
  $('stop-play').onclick = () => { ui.formDirty = false; api('play', { side: 'none' }); };
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
  $('analyse').onclick = () => api('analyse', { on: ui.state.analysing ? 'false' : 'true' });
  $('analyse-game').onclick = () => api('analyse-game', ui.state.game_analysis.running
    ? { on: 'false' } : { on: 'true', movetime: $('ga-time').value });
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
