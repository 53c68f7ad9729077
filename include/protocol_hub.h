// SPDX-License-Identifier: MIT
// The Hub dialect (Scan protocol v2) of the front end.
#ifndef PROTOCOL_HUB_H_INCLUDED
#define PROTOCOL_HUB_H_INCLUDED

#include "protocol.h"

// Handles one Hub line; returns false once the session should end.
bool hub_handle_line(Proto *p, char *line);

#endif
