// SPDX-License-Identifier: MIT
// CheckerBoard's engine interface (Martin Fierz's GUI; Russian draughts is its game type 25),
// as its published API defines it: the board as int[8][8] indexed [x][y], the move structure
// CBmove, and the three functions a GUI finds in an engine's DLL. Damka's front end for it is
// src/cb.c. For Russian draughts CheckerBoard puts a1 at x = 7, y = 7 and h8 at x = 0, y = 0
// (White's men start on y = 5..7), as pydraughts and the engines of that game read it.
#ifndef CB_H_INCLUDED
#define CB_H_INCLUDED

#include "plugin.h"

enum {
    CB_FREE = 0, // board values: a colour and a kind, or empty
    CB_WHITE = 1,
    CB_BLACK = 2,
    CB_MAN = 4,
    CB_KING = 8,
    CB_DRAW = 0, // getmove's result: what the engine thinks of the position
    CB_WIN = 1,
    CB_LOSS = 2,
    CB_UNKNOWN = 3,
    CB_RESET_MOVES = 1, // getmove's info bits: a new game (the history is forgotten),
    CB_EXACT_TIME = 2,  // think exactly maxtime, and with these two the clock is in moreinfo:
    CB_TIME_CENTI = 8,  // time and increment (16 bits each, time high) in hundredths,
    CB_TIME_MILLI = 16, // thousandths, or with both bits tenths of a second
    CB_GAMETYPE_RUSSIAN = 25,
    CB_REPLY_MAX = 1024, // enginecommand's and getmove's text buffers
    CB_COMMAND_MAX = 256,
    CB_PATH_MAX = 12,
};

typedef struct CBcoor {
    int x, y;
} CBcoor;

// A move as CheckerBoard reads it: the number of pieces taken, the piece before and after
// (a man that promotes changes), origin and destination, the landing squares of a capture
// (path[0] the origin, path[1..jumps-1] the landings before the last), the squares taken in
// order and what stood on them.
typedef struct CBmove {
    int jumps;
    int newpiece;
    int oldpiece;
    CBcoor from, to;
    CBcoor path[CB_PATH_MAX];
    CBcoor del[CB_PATH_MAX];
    int delpiece[CB_PATH_MAX];
} CBmove;

// Searches board for color (CB_WHITE or CB_BLACK) for about maxtime seconds (exactly with
// CB_EXACT_TIME; the clock of moreinfo when info says), until *playnow turns non-zero; plays
// the move on board, describes it in *move and in str (depth, score, PV, speed), and returns
// what the engine thinks of the position (CB_WIN ... CB_UNKNOWN). The game's history is kept
// from the boards the GUI sends (CB_RESET_MOVES starts a new game).
PLUGIN_EXPORT int PLUGIN_CALL getmove(int board[8][8], int color, double maxtime, char str[1024],
                                      int *playnow, int info, int moreinfo, CBmove *move);

// Answers a command of the GUI (name, about, help, get/set gametype, protocolversion,
// hashsize, book, gamehist ...) in reply; returns 1 when the command is understood and done.
PLUGIN_EXPORT int PLUGIN_CALL enginecommand(char command[256], char reply[1024]);

// Whether color may move from square `from` to square `to` (1..32, 1 = b8) on board; fills
// *move and returns 1 when it may.
PLUGIN_EXPORT int PLUGIN_CALL islegal(int board[8][8], int color, int from, int to, CBmove *move);

#endif
