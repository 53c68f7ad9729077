// SPDX-License-Identifier: MIT
// The Hub dialect of the front end (Scan protocol v2, 8x8 Russian; protocol.md, part 2).
#ifndef HUB_H_INCLUDED
#define HUB_H_INCLUDED

#include "protocol.h"

// The dialect: key=value lines for pydraughts and lidraughts-bot.
const ProtoDialect *hub_dialect(void);

#endif
