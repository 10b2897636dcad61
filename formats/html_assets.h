/*
 * html_assets.h: the script and the style every HTML page carries inline.
 *
 * Their sources are formats/html.js and formats/html.css, plain files to
 * read and edit.  The build turns them into C data (tools/embed.c writes
 * build/.../gen/html_assets.c: each file's bytes as a char array, and the
 * SHA-256 of those bytes, base64, as the page's Content-Security-Policy
 * wants it), so the page needs no other file and the build needs nothing
 * but the C compiler.  The generator refuses a file that holds "</script"
 * or "</style", which would end the element early.
 */
#ifndef XQI_FORMATS_HTML_ASSETS_H
#define XQI_FORMATS_HTML_ASSETS_H

extern const char xqi_html_script[];      /* formats/html.js, NUL-terminated */
extern const char xqi_html_script_hash[]; /* "sha256-BASE64" of its bytes */
extern const char xqi_html_style[];       /* formats/html.css */
extern const char xqi_html_style_hash[];

#endif
