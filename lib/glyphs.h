/*
 * glyphs.h: the outlines SVG boards draw their characters with (pieces,
 * river, file and rank labels), so that a board needs no font to render.
 *
 * lib/glyphs.c is generated at development time by tools/genglyphs.py from
 * free fonts (Noto CJK, SIL Open Font License 1.1: see that file's
 * header and LICENSE.OFL) and checked in; the build needs neither the
 * script nor the fonts.
 *
 * Each outline is SVG path data in a square of XQI_GLYPH_EM units centred
 * on (0, 0), y pointing down: an ideograph is centred as in its em box, a
 * Latin letter or digit on half its cap height above the baseline.  So
 * <symbol viewBox="-500 -500 1000 1000"> scaled to a square of the glyph's
 * size centres the character on that square's centre.
 */
#ifndef XQI_LIB_GLYPHS_H
#define XQI_LIB_GLYPHS_H

#include <stddef.h>
#include <stdint.h>

#define XQI_GLYPH_EM 1000

struct xqi_glyph {
	uint32_t cp;      /* the character, a Unicode code point */
	const char *path; /* its outline as SVG path data */
};

/* Sorted by code point. */
extern const struct xqi_glyph xqi_glyphs[];
extern const size_t xqi_glyph_count;

#endif
