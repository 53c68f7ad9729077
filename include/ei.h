// SPDX-License-Identifier: MIT
// The Kallisto engine interface (the EI_* functions of the Kallisto GUI, used at the computer
// championships of Russian draughts), as engines that support it export it. Positions are 33
// characters: squares b8, d8, f8, h8, a7, ... a1, c1, e1, g1 as b (black man), B (black king),
// w, W or '.' (empty), then the side to move, w or b. Moves are "c3d4", or for a capture the
// origin, the squares taken in order and the destination: "a3:b4:d6:e7". The engine keeps the
// game: EI_MakeMove plays the opponent's move, EI_Think (and EI_PonderHit) its own. Damka's
// front end for it is src/ei.c.
#ifndef EI_H_INCLUDED
#define EI_H_INCLUDED

#include "plugin.h"

enum {
    EI_MOVE_MAX = 64, // a move's text
    EI_PV_MAX = 512,  // a principal variation's text
    EI_POSITION_LEN = 33,
    EI_SCORE_WIN = 32767,    // a win in N plies is reported as 32767 - N,
    EI_SCORE_DB_WIN = 30000, // a win the databases know as 30000 - N
};

// The search-information callback: score (centi-men, or the win scores above; from the side
// to move), depth, speed (nodes per second), principal variation, move being searched.
typedef void(PLUGIN_CALL *EI_SearchInfo)(int score, int depth, int speed, char *pv, char *cm);

// Starts the engine: the callback (may be NULL) and the memory it may use, in MB (the table).
PLUGIN_EXPORT void PLUGIN_CALL EI_Initialization(EI_SearchInfo si, int mem_lim);
PLUGIN_EXPORT void PLUGIN_CALL EI_NewGame(void);
// Sets the position (a bad one is ignored and the game kept).
PLUGIN_EXPORT void PLUGIN_CALL EI_SetupBoard(char *pos);
// Plays the opponent's move (an illegal one is ignored).
PLUGIN_EXPORT void PLUGIN_CALL EI_MakeMove(char *move);
// Searches, plays and returns the engine's move ("" when it has none).
PLUGIN_EXPORT char *PLUGIN_CALL EI_Think(void);
// Searches on the opponent's time, in the background, until EI_PonderHit or EI_Stop.
PLUGIN_EXPORT void PLUGIN_CALL EI_Ponder(void);
// The opponent played move: plays it, then searches and plays the engine's reply.
PLUGIN_EXPORT char *PLUGIN_CALL EI_PonderHit(char *move);
// Analyses the current position until EI_Stop (from another thread).
PLUGIN_EXPORT void PLUGIN_CALL EI_Analyse(void);
// Ends EI_Think, EI_Ponder, EI_PonderHit or EI_Analyse at once (they return the move found).
PLUGIN_EXPORT void PLUGIN_CALL EI_Stop(void);
// Time control: minutes for the game and the increment in ms; then before each move the time
// left on the engine's clock and the opponent's, in ms.
PLUGIN_EXPORT void PLUGIN_CALL EI_SetTimeControl(int time, int inc);
PLUGIN_EXPORT void PLUGIN_CALL EI_SetTime(int time, int otime);
PLUGIN_EXPORT char *PLUGIN_CALL EI_GetName(void);
// The host unloads the engine.
PLUGIN_EXPORT void PLUGIN_CALL EI_OnExit(void);
// The GUI's own endgame databases: accepted and not used (Damka reads its own, the egdb folder
// beside the library).
PLUGIN_EXPORT void PLUGIN_CALL EI_EGDB(void *eda);

#endif
