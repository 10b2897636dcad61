/*
 * html.js: replays the games of a page written by xqkit's HTML writer
 * (formats/html.c; formats/html.h says what the page holds).  Plain
 * script, no library, no network; the page's policy runs nothing else.
 *
 * Each <section class="game"> keeps its body (board, tags, move text) in
 * a <noscript>, which the browser holds as one string while scripts run:
 * materialize() turns it into elements the first time the game is seen
 * or used, so a page of thousands of games opens fast.  Then it is read:
 * its data-moves attribute gives the tree of moves in ICCS (each move
 * "P:" prefixed when its parent P is not the move listed just before it;
 * 0 is the start), in the order of the <a> elements of its move text, and
 * data-start the start position when it is not the usual one.  Positions
 * are computed from those moves and kept, so going anywhere costs at most
 * the moves not yet seen on the way.
 *
 * Keys act on the game last used (clicked, or named by the address), else
 * the first one on the screen: Left/Right a move back/forward, Home/End the start/the end
 * of the line, Down into the next variation, Up back out of it, F flips
 * the board.
 */
(function () {
	'use strict';

	var START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';
	var SVG = 'http://www.w3.org/2000/svg';
	var defs = document.querySelector('svg.xq-defs');
	var CELL = +defs.getAttribute('data-cell');
	var MARGIN = +defs.getAttribute('data-margin');
	var sections = document.querySelectorAll('section.game');
	var active = null;

	/* ---- positions: 90 squares, rank 0 (red's back rank) first ---- */

	function parseFen(fen) {
		var f = fen.split(' '), rows = f[0].split('/'), sq = [], r, i, file, c;
		for (i = 0; i < 90; i++)
			sq.push('');
		for (r = 0; r < 10; r++) {
			for (i = 0, file = 0; i < (rows[r] || '').length; i++) {
				c = rows[r].charAt(i);
				if (c >= '1' && c <= '9')
					file += +c;
				else
					sq[(9 - r) * 9 + file++] = c;
			}
		}
		return { sq: sq, side: f[1] === 'b' ? 'b' : 'w', half: +f[4] || 0, full: +f[5] || 1, last: '' };
	}

	function fenOf(p) {
		var out = '', r, f, empty, c;
		for (r = 9; r >= 0; r--) {
			for (f = 0, empty = 0; f < 9; f++) {
				c = p.sq[r * 9 + f];
				if (!c) {
					empty++;
					continue;
				}
				if (empty)
					out += empty;
				empty = 0;
				out += c;
			}
			if (empty)
				out += empty;
			if (r)
				out += '/';
		}
		return out + ' ' + p.side + ' - - ' + p.half + ' ' + p.full;
	}

	/* The square of ICCS "h2" at s[i]. */
	function square(s, i) {
		return (s.charCodeAt(i + 1) - 48) * 9 + s.charCodeAt(i) - 97;
	}

	/* The position after move `mv` (legal: the writer checked it). */
	function play(p, mv) {
		var from = square(mv, 0), to = square(mv, 2), sq = p.sq.slice(), capture = sq[to] !== '';
		sq[to] = sq[from];
		sq[from] = '';
		return {
			sq: sq, side: p.side === 'w' ? 'b' : 'w', half: capture ? 0 : p.half + 1,
			full: p.side === 'b' ? p.full + 1 : p.full, last: mv
		};
	}

	/* ---- a game ---- */

	/* The game's body as elements (see the top). */
	function materialize(sec) {
		var ns = sec.querySelector('noscript'), tpl;
		if (!ns)
			return;
		tpl = document.createElement('template');
		tpl.innerHTML = ns.textContent;
		ns.parentNode.replaceChild(tpl.content, ns);
	}

	function load(sec) {
		if (sec.xq)
			return sec.xq;
		materialize(sec);
		var data = sec.getAttribute('data-moves'), tokens = data ? data.split(' ') : [];
		var nodes = [{ parent: -1, mv: '', kids: [], ply: 0, main: true }], i, t, c, parent, n;
		for (i = 0; i < tokens.length; i++) {
			t = tokens[i];
			c = t.indexOf(':');
			parent = c < 0 ? i : +t.slice(0, c);
			if (!nodes[parent])
				return null; /* not a page this script knows */
			nodes.push({ parent: parent, mv: t.slice(c + 1), kids: [], ply: nodes[parent].ply + 1, main: false });
			nodes[parent].kids.push(i + 1);
		}
		var g = {
			sec: sec, nodes: nodes, pos: [parseFen(sec.getAttribute('data-start') || START)],
			links: sec.querySelectorAll('.moves a'), moves: sec.querySelector('.moves'),
			board: sec.querySelector('svg.board'), fen: sec.querySelector('.fen input'),
			where: sec.querySelector('.where'), graph: sec.querySelector('svg.graph'),
			main: [0], flip: false, cur: 0
		};
		g.back = g.board.querySelector('use');
		g.pieces = g.board.querySelector('.pieces');
		g.marks = g.board.querySelector('.last-move');
		for (i = 0; i < g.links.length; i++)
			g.links[i].xqNode = i + 1;
		for (n = 0; nodes[n].kids.length;) {
			n = nodes[n].kids[0];
			nodes[n].main = true;
			g.main.push(n);
		}
		g.cur = n;
		addControls(g);
		sec.xq = g;
		sec.setAttribute('data-node', n);
		return g;
	}

	function addControls(g) {
		var nav = document.createElement('p'), copy = document.createElement('button');
		nav.className = 'nav';
		nav.innerHTML =
			'<button type="button" data-go="first" title="Start (Home)">&laquo;</button>' +
			'<button type="button" data-go="prev" title="Back (Left)">&lsaquo;</button>' +
			'<button type="button" data-go="next" title="Forward (Right)">&rsaquo;</button>' +
			'<button type="button" data-go="last" title="End of the line (End)">&raquo;</button>' +
			'<button type="button" data-go="out" title="Out of the variation (Up)">&uarr;</button>' +
			'<button type="button" data-go="into" title="Into the next variation (Down)">&darr;</button>' +
			'<button type="button" data-go="flip" title="Flip the board (F)">Flip</button>';
		g.board.parentNode.insertBefore(nav, g.board.nextSibling);
		copy.type = 'button';
		copy.textContent = 'Copy';
		copy.setAttribute('data-go', 'copy');
		copy.title = 'Copy the FEN';
		g.fen.parentNode.parentNode.appendChild(copy);
	}

	/* The position after node n, computing what is missing on the way. */
	function position(g, n) {
		var path = [], m;
		while (!g.pos[n]) {
			path.push(n);
			n = g.nodes[n].parent;
		}
		while (path.length) {
			m = path.pop();
			g.pos[m] = play(g.pos[n], g.nodes[m].mv);
			n = m;
		}
		return g.pos[n];
	}

	function x(g, file) {
		return MARGIN + (g.flip ? 8 - file : file) * CELL;
	}

	function y(g, rank) {
		return MARGIN + (g.flip ? rank : 9 - rank) * CELL;
	}

	function place(el, g, sq) {
		el.setAttribute('x', x(g, sq % 9));
		el.setAttribute('y', y(g, (sq - sq % 9) / 9));
	}

	function draw(g, p) {
		var frag = document.createDocumentFragment(), i, u, marks = g.marks.children;
		for (i = 0; i < 90; i++) {
			if (!p.sq[i])
				continue;
			u = document.createElementNS(SVG, 'use');
			u.setAttribute('href', '#xq-p' + p.sq[i]);
			place(u, g, i);
			frag.appendChild(u);
		}
		g.pieces.textContent = '';
		g.pieces.appendChild(frag);
		g.back.setAttribute('href', g.flip ? '#xq-board-flip' : '#xq-board');
		if (p.last) {
			place(marks[0], g, square(p.last, 0));
			place(marks[1], g, square(p.last, 2));
			g.marks.removeAttribute('display');
		} else {
			g.marks.setAttribute('display', 'none');
		}
	}

	function describe(g, n) {
		if (!n)
			return 'Start position';
		var node = g.nodes[n], before = position(g, node.parent), a = g.links[n - 1];
		return 'Ply ' + node.ply + ': ' + before.full + (before.side === 'b' ? '... ' : '. ') +
			(a ? a.textContent : node.mv) + (node.main ? '' : ' (variation)');
	}

	/* Scroll the move list, not the page, to show link a. */
	function keepInView(g, a) {
		var box = g.moves, top = a.offsetTop, bottom = top + a.offsetHeight;
		if (box.scrollHeight <= box.clientHeight)
			return;
		if (top < box.scrollTop)
			box.scrollTop = top - 8;
		else if (bottom > box.scrollTop + box.clientHeight)
			box.scrollTop = bottom - box.clientHeight + 8;
	}

	function show(g, n) {
		if (n < 0 || n >= g.nodes.length)
			return;
		var p = position(g, n), old = g.links[g.cur - 1], a = g.links[n - 1], now;
		if (old)
			old.classList.remove('cur');
		g.cur = n;
		draw(g, p);
		if (a) {
			a.classList.add('cur');
			keepInView(g, a);
		}
		g.fen.value = fenOf(p);
		g.where.textContent = describe(g, n);
		if (g.graph) {
			now = g.graph.querySelector('.now');
			var w = g.graph.viewBox.baseVal.width, plies = +g.graph.getAttribute('data-plies') || 1;
			now.setAttribute('x1', g.nodes[n].ply * w / plies);
			now.setAttribute('x2', g.nodes[n].ply * w / plies);
			now.classList.toggle('off', !g.nodes[n].main);
		}
		g.sec.setAttribute('data-node', n);
	}

	/* ---- moving around ---- */

	var go = {
		next: function (g) {
			var k = g.nodes[g.cur].kids;
			if (k.length)
				show(g, k[0]);
		},
		prev: function (g) {
			if (g.cur)
				show(g, g.nodes[g.cur].parent);
		},
		first: function (g) {
			show(g, 0);
		},
		last: function (g) {
			var n = g.cur;
			while (g.nodes[n].kids.length)
				n = g.nodes[n].kids[0];
			show(g, n);
		},
		/* The next alternative to this move, else the first to the next move. */
		into: function (g) {
			var n = g.cur, parent = g.nodes[n].parent, sibs, i, kids = g.nodes[n].kids;
			if (parent >= 0) {
				sibs = g.nodes[parent].kids;
				i = sibs.indexOf(n);
				if (i + 1 < sibs.length)
					return show(g, sibs[i + 1]);
			}
			if (kids.length > 1)
				show(g, kids[1]);
		},
		/* Back to the move the variation we are in is an alternative to. */
		out: function (g) {
			var n = g.cur;
			while (n > 0 && g.nodes[g.nodes[n].parent].kids[0] === n)
				n = g.nodes[n].parent;
			if (n > 0)
				show(g, g.nodes[g.nodes[n].parent].kids[0]);
		},
		flip: function (g) {
			g.flip = !g.flip;
			g.sec.classList.toggle('flipped', g.flip);
			draw(g, position(g, g.cur));
		},
		copy: function (g) {
			g.fen.select();
			if (navigator.clipboard && navigator.clipboard.writeText)
				navigator.clipboard.writeText(g.fen.value).catch(function () {});
			else
				document.execCommand('copy');
		}
	};

	var keys = {
		ArrowRight: 'next', ArrowLeft: 'prev', Home: 'first', End: 'last',
		ArrowDown: 'into', ArrowUp: 'out', f: 'flip', F: 'flip'
	};

	function activate(g) {
		if (active === g)
			return;
		if (active)
			active.sec.classList.remove('active');
		active = g;
		g.sec.classList.add('active');
	}

	/* The game the keys move: the last one used, else the first one that
	 * shows more than a sliver below the top of the window (sections are
	 * in page order: a binary search, however many games). */
	function current() {
		var lo = 0, hi = sections.length - 1, mid;
		if (active || !sections.length)
			return active;
		while (lo < hi) {
			mid = (lo + hi) >> 1;
			if (sections[mid].getBoundingClientRect().bottom <= 60)
				lo = mid + 1;
			else
				hi = mid;
		}
		return load(sections[lo]);
	}

	document.addEventListener('keydown', function (e) {
		var t = e.target, g, name = keys[e.key];
		if (!name || e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented)
			return;
		if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.isContentEditable))
			return;
		g = current();
		if (!g)
			return;
		e.preventDefault();
		activate(g);
		go[name](g);
	});

	document.addEventListener('click', function (e) {
		var t = e.target, sec = t.closest ? t.closest('section.game') : null, g, a, b, href, r, k;
		a = t.closest ? t.closest('a') : null;
		if (!sec && a && /^#g\d+$/.test(a.getAttribute('href') || '') &&
		    (sec = document.getElementById(a.getAttribute('href').slice(1))) && (g = load(sec))) {
			/* A link of the index: its game takes the keys now, not when
			 * the address has changed (a key pressed at once went to the
			 * game before). */
			activate(g);
			return;
		}
		if (!sec || !(g = load(sec)))
			return;
		activate(g);
		a = t.closest('a');
		href = a ? a.getAttribute('href') || '' : '';
		if (a && a.xqNode) {
			show(g, a.xqNode);
			return;
		}
		if (/^#g\d+-m\d+$/.test(href)) {
			/* A link to a move: show it there, without leaving the board. */
			e.preventDefault();
			k = +href.split('-m')[1];
			show(g, k);
			return;
		}
		b = t.closest('button[data-go]');
		if (b && go[b.getAttribute('data-go')]) {
			go[b.getAttribute('data-go')](g);
			return;
		}
		if (g.graph && t.closest('svg.graph')) {
			r = g.graph.getBoundingClientRect();
			k = Math.round((e.clientX - r.left) / r.width * (+g.graph.getAttribute('data-plies') || 0));
			show(g, g.main[Math.max(0, Math.min(g.main.length - 1, k))]);
		}
	});

	function followAddress() {
		var m = /^#(g\d+)(?:-m(\d+))?$/.exec(location.hash), sec, g;
		if (!m || !(sec = document.getElementById(m[1])) || !(g = load(sec)))
			return;
		activate(g);
		if (m[2]) {
			/* The move was not an element when the browser looked for it. */
			show(g, +m[2]);
			sec.scrollIntoView();
		}
	}

	document.documentElement.classList.add('js');
	if (sections.length > 1)
		document.title = sections.length + ' xiangqi games';
	/* Controls for the games in view; all at once when there are few. */
	if (sections.length > 20 && window.IntersectionObserver) {
		var seen = new IntersectionObserver(function (entries) {
			entries.forEach(function (en) {
				if (en.isIntersecting) {
					load(en.target);
					seen.unobserve(en.target);
				}
			});
		}, { rootMargin: '200px' });
		Array.prototype.forEach.call(sections, function (s) { seen.observe(s); });
	} else {
		Array.prototype.forEach.call(sections, load);
	}
	window.addEventListener('hashchange', followAddress);
	followAddress();
})();
