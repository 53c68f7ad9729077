// SPDX-License-Identifier: MIT
// Text protocol front end (UCI-style and Hub dialects); the only writer to stdout.
#ifndef PROTOCOL_H_INCLUDED
#define PROTOCOL_H_INCLUDED

// Runs the protocol loop on stdin/stdout; args are the command-line words after the program.
int proto_main(int argc, char **argv);

#endif
