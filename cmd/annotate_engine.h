/*
 * annotate_engine.h: --engine auto, the engine `xqkit annotate` finds for
 * itself.
 */
#ifndef CMD_ANNOTATE_ENGINE_H
#define CMD_ANNOTATE_ENGINE_H

#include <stddef.h>
#include <stdint.h>

/*
 * The first of these that is found and analyses a position (each engine
 * that is found but fails is passed over with a warning): Pikafish
 * ($PIKAFISH, else `pikafish` on $PATH), then Fairy-Stockfish
 * ($FAIRY_STOCKFISH, else `fairy-stockfish` on $PATH, else
 * /usr/games/fairy-stockfish, where Debian installs it).  A variable that
 * is set names the only place looked at for that engine.  Its path, in
 * `buf` (`cap` bytes), is returned; NULL when none works (annotate then
 * uses the built-in engine) or a signal came.  `timeout_ms`: how long an
 * engine may stay silent (0: the default).
 */
const char *annotate_find_engine(uint32_t timeout_ms, char *buf, size_t cap);

#endif
