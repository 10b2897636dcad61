/*
 * dhtmlxq_tables.c: the words of DhtmlXQ that reading and writing share
 * (dhtmlxq_int.h): the result words that are the format's own and the
 * elements whose tag is not their capitalised name.  Below the scanner,
 * the builder and the writer, which read them, and the registry entry
 * (dhtmlxq.c, where the format is described).
 */
#include "dhtmlxq_int.h"

/* Result words of DhtmlXQ_result that are the format's own: the WXF
 * database's W, L, D, red's result (doc: notation-and-formats.md §5; its
 * rare V is not known and stays unknown).  The Chinese words (红胜, 黑负,
 * 和棋, 未知, ...) are read as xqi_result_word() reads them everywhere. */
const struct dh_result_word xqi_dh_results[] = {
	{"W", XQI_RESULT_RED_WIN},
	{"L", XQI_RESULT_BLACK_WIN},
	{"D", XQI_RESULT_DRAW},
};

/* Elements whose tag is not their capitalised name. */
const struct dh_tag_element xqi_dh_tags[] = {
	{"place", "Site"},      {"open", "Opening"},         {"ecco", "ECCO"},
	{"remark", "Annotator"}, {"type", "GameType"},       {"timerule", "TimeControl"},
};

const size_t xqi_dh_nresults = sizeof(xqi_dh_results) / sizeof(xqi_dh_results[0]);
const size_t xqi_dh_ntags = sizeof(xqi_dh_tags) / sizeof(xqi_dh_tags[0]);
