/*
 * diagram.c: boards drawn for people, of the public API (<xq/diagram.h>),
 * over lib/diagram.
 */
#include "diagram.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

int xq_position_diagram(const xq_position *p, const xq_diagram_options *opts, char **out, size_t *len)
{
	xq_diagram_options o = XQ_DIAGRAM_OPTIONS_INIT;
	struct xq_buf b = XQ_BUF_INIT;
	xqi_move last = 0;
	int rc;

	if (len)
		*len = 0;
	if (!p || !out)
		return XQ_EINVAL;
	*out = NULL;
	if (opts && opts->size)
		memcpy(&o, opts, opts->size < sizeof(o) ? opts->size : sizeof(o));
	if (o.style < XQ_DIAGRAM_STYLE_ASCII || o.style > XQ_DIAGRAM_STYLE_SVG || o.labels < 0 ||
	    o.labels > XQ_DIAGRAM_LABELS_NONE)
		return XQ_EUNSUPPORTED;
	if (o.last && !(last = xqi_api_move_in(o.last)))
		return XQ_ERANGE;
	o.flags &= XQ_DIAGRAM_COLOR | XQ_DIAGRAM_FLIP;
	if (o.style == XQ_DIAGRAM_STYLE_SVG) {
		struct xqi_svg_opts svg = XQI_SVG_OPTS_INIT;
		if (o.cell)
			svg.cell = o.cell;
		svg.flip = (o.flags & XQ_DIAGRAM_FLIP) != 0;
		svg.coordinates = o.labels;
		svg.title = o.title;
		rc = xqi_diagram_svg(&b, &p->b, last, &svg);
	} else if (o.style == XQ_DIAGRAM_STYLE_UNICODE) {
		rc = xqi_diagram_unicode(&b, &p->b, last, o.flags);
	} else {
		rc = xqi_diagram_ascii(&b, &p->b, last, o.flags);
	}
	if (rc || xq_buf_error(&b)) {
		xq_buf_release(&b);
		return XQ_ENOMEM;
	}
	*out = xq_buf_detach(&b, len);
	return *out ? 0 : XQ_ENOMEM;
}
