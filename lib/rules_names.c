/*
 * rules_names.c: the words of the rules (rule sets, verdicts, conducts,
 * kinds of move, reasons, limits, sides and pieces) and the default
 * options.  The bottom of the rules module (rules_int.h): it calls no
 * other part.
 */
#include "rules_int.h"

#include "utf8.h"

const struct xqi_rules_options xqi_rules_default_options = XQI_RULES_OPTIONS_INIT;

const char *xqi_rules_set_name(enum xq_ruleset s)
{
	return s == XQ_RULESET_CHINESE ? "chinese" : "asian";
}

int xqi_rules_set_from_name(const char *name, enum xq_ruleset *out)
{
	static const struct {
		const char *name;
		enum xq_ruleset set;
	} names[] = {{"asian", XQ_RULESET_ASIAN},
		     {"axf", XQ_RULESET_ASIAN},
		     {"wxf", XQ_RULESET_ASIAN},
		     {"chinese", XQ_RULESET_CHINESE},
		     {"cxa", XQ_RULESET_CHINESE}};

	if (!name)
		return XQ_ENOTFOUND;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (xq_ascii_ieq(name, names[i].name)) {
			*out = names[i].set;
			return 0;
		}
	}
	return XQ_ENOTFOUND;
}

const char *xqi_rules_verdict_name(enum xq_ruling v)
{
	switch (v) {
	case XQ_RULING_DRAW:
		return "draw";
	case XQ_RULING_RED_LOSES:
		return "red loses";
	case XQ_RULING_BLACK_LOSES:
		return "black loses";
	default:
		return "none";
	}
}

enum xqi_result xqi_rules_verdict_result(enum xq_ruling v)
{
	switch (v) {
	case XQ_RULING_DRAW:
		return XQI_RESULT_DRAW;
	case XQ_RULING_RED_LOSES:
		return XQI_RESULT_BLACK_WIN;
	case XQ_RULING_BLACK_LOSES:
		return XQI_RESULT_RED_WIN;
	default:
		return XQI_RESULT_NONE;
	}
}

const char *xqi_rules_conduct_name(enum xqi_rules_conduct c)
{
	switch (c) {
	case XQI_CONDUCT_PERPETUAL_CHECK:
		return "perpetual check";
	case XQI_CONDUCT_PERPETUAL_CHASE:
		return "perpetual chase";
	case XQI_CONDUCT_PERPETUAL_KILL:
		return "perpetual mate threat";
	case XQI_CONDUCT_FORBIDDEN_MIX:
		return "attacks on every move";
	default:
		return "allowed";
	}
}

const char *xqi_rules_kind_name(enum xqi_rules_kind k)
{
	switch (k) {
	case XQI_RULES_IDLE:
		return "idle";
	case XQI_RULES_CHASE:
		return "chase";
	case XQI_RULES_KILL:
		return "kill";
	case XQI_RULES_CHECK:
		return "check";
	default:
		return "unclassified";
	}
}

const char *xqi_rules_why_text(enum xqi_rules_why w)
{
	switch (w) {
	case XQI_WHY_UNPROTECTED:
		return "it is unprotected";
	case XQI_WHY_ROOK_BY_MINOR:
		return "a horse or cannon chases a rook even when it is protected";
	case XQI_WHY_GAINS_MATERIAL:
		return "an advisor or elephant taking it gains material even when it is protected";
	case XQI_WHY_PROTECTED:
		return "it is protected, so this is not a chase";
	case XQI_WHY_EXCHANGE:
		return "it can take back: an exchange offer, not a chase";
	case XQI_WHY_UNCROSSED_PAWN:
		return "a pawn that has not crossed the river cannot be chased";
	case XQI_WHY_BY_KING:
		return "a king may attack for ever";
	case XQI_WHY_BY_PAWN:
		return "a pawn may attack for ever";
	case XQI_WHY_ALREADY:
		return "it was already chased before this move, so this is not a new chase";
	case XQI_WHY_CHECK:
		return "check";
	default:
		return "";
	}
}

const char *xqi_rules_support_name(enum xqi_rules_support s)
{
	switch (s) {
	case XQI_SUPPORT_CONFIRMED:
		return "confirmed";
	case XQI_SUPPORT_CONTRADICTED:
		return "contradicted";
	case XQI_SUPPORT_NOT_SHOWN:
		return "not-shown";
	case XQI_SUPPORT_DOUBTFUL:
		return "doubtful";
	default:
		return "silent";
	}
}

static const char *const type_names[XQI_PIECE_TYPES] = {"king",   "advisor", "elephant", "horse",
						       "rook",   "cannon",  "pawn"};

const char *xqi_rules_type_name(int type)
{
	return type_names[type];
}

const char *xqi_rules_side_name(int side)
{
	return side == XQI_RED ? "red" : "black";
}

const char *xqi_rules_limit_name(uint8_t kind)
{
	switch (kind) {
	case XQI_LIMIT_CXQ_EFFECTIVE:
		return "clubxiangqi effective-move limit";
	case XQI_LIMIT_CXQ_PROGRESS:
		return "clubxiangqi progress limit";
	case XQI_LIMIT_CXQ_TOTAL:
		return "clubxiangqi total-move limit";
	default:
		return "natural limit";
	}
}
