// SPDX-License-Identifier: MIT
// The UCI-style dialect of the front end (protocol.md, part 1).
#ifndef UCI_H_INCLUDED
#define UCI_H_INCLUDED

#include "protocol.h"

// The dialect: `uci`, `position`, `go`, `setoption` and the rest.
const ProtoDialect *uci_dialect(void);

#endif
