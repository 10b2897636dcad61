/*
 * <xq/version.h>: the version of libxq, the xiangqi record library.
 *
 * The library has its own semantic version, separate from the xqkit
 * command's: MAJOR changes when a program built against an earlier
 * version could break (a function removed or changed, a type's size or
 * meaning changed); it is also the number in the shared library's name
 * (libxq.so.MAJOR).  MINOR grows when functions are added; PATCH for
 * fixes.  While MAJOR is 0 the API may still change between minor
 * versions (README.md, "Library: stability").
 */
#ifndef XQ_PUBLIC_VERSION_H
#define XQ_PUBLIC_VERSION_H

#define XQ_VERSION_MAJOR 0
#define XQ_VERSION_MINOR 1
#define XQ_VERSION_PATCH 0
#define XQ_VERSION_STRING "0.1.0"
/* One number that grows with every version: 0x00MMmmpp. */
#define XQ_VERSION_NUMBER ((XQ_VERSION_MAJOR << 16) | (XQ_VERSION_MINOR << 8) | XQ_VERSION_PATCH)

/* What a function of the public API is declared with: exported from the
 * shared library, whose other symbols are hidden. */
#if defined(__GNUC__) && __GNUC__ >= 4
#define XQ_API __attribute__((visibility("default")))
#else
#define XQ_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The version of the library the program runs with ("0.1.0"), which can
 * be newer than the XQ_VERSION_STRING it was compiled with.  Static
 * string; thread-safe.
 */
XQ_API const char *xq_version(void);
/* The same as XQ_VERSION_NUMBER of the library the program runs with. */
XQ_API int xq_version_number(void);

#ifdef __cplusplus
}
#endif

#endif
