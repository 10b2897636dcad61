/*
 * xqf_layout.c: what both directions of XQF share (formats/xqf_int.h):
 * the header's text fields, the game type names, the piece kind of each
 * slot and the key derivation of the encrypted versions.  The section
 * numbers refer to ../shared/docs/xqf-format.md; the mapping of fields to
 * tags is described in xqf.c.  Below the reader, the writer and the
 * registry entry (xqf.c), which call into it and never the other way.
 */
#include "xqf_int.h"

#include <string.h>

#include "position.h"

const struct xqf_field xqi_xqf_fields[NFIELDS] = {
	{"Title", H_TITLE, 63},         {"TitleB", H_TITLEB, 63},   {"Event", 0x0D0, 63},
	{"Date", 0x110, 15},            {"Site", 0x120, 15},        {"Red", 0x130, 15},
	{"Black", 0x140, 15},           {"TimeControl", 0x150, 63}, {"RedTime", 0x190, 15},
	{"BlackTime", 0x1A0, 15},       {"Annotator", 0x1D0, 15},   {"Author", 0x1E0, 15},
};

const char *const xqi_xqf_game_types[XQF_GAME_TYPES] = {"全局", "布局", "中局", "残局"};

/* Piece kind of each of the 16 slots of a side (§3.3). */
const uint8_t xqi_xqf_slot_type[16] = {
	XQI_ROOK, XQI_HORSE, XQI_ELEPHANT, XQI_ADVISOR, XQI_KING, XQI_ADVISOR, XQI_ELEPHANT, XQI_HORSE,
	XQI_ROOK, XQI_CANNON, XQI_CANNON, XQI_PAWN, XQI_PAWN, XQI_PAWN, XQI_PAWN, XQI_PAWN,
};

static const char key_mask_text[32] = "[(C) Copyright Mr. Dong Shiwei.]";

static unsigned key_f(unsigned b)
{
	/* (((((b*b)*3+9)*3+8)*2+1)*3+8), as every implementation writes it */
	return (((((b * b) * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8);
}

void xqi_xqf_keys_derive(struct xqi_xqf_keys *k, const uint8_t h[16])
{
	uint8_t kb[4];

	memset(k, 0, sizeof(*k));
	if (h[H_VERSION] <= XQI_XQF_VERSION_PLAIN)
		return;
	k->xy = (uint8_t)(key_f(h[H_KEYXY]) * h[H_KEYXY]);
	k->xyf = (uint8_t)(key_f(h[H_KEYXYF]) * k->xy);
	k->xyt = (uint8_t)(key_f(h[H_KEYXYT]) * k->xyf);
	k->rmk_size = (uint16_t)(((unsigned)h[H_KEYSSUM] * 256 + h[H_KEYXY]) % 32000 + 767);
	for (int i = 0; i < 4; i++)
		kb[i] = (uint8_t)((h[H_KEYSSUM + i] & h[H_KEYMASK]) | h[H_KEYOR + i]);
	for (int i = 0; i < 32; i++)
		k->f32[i] = (uint8_t)((unsigned char)key_mask_text[i] & kb[i % 4]);
}
