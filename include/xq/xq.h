/*
 * <xq/xq.h>: libxq, the xiangqi (Chinese chess) record library of xqkit.
 * Everything public, in one include; link with `pkg-config --libs xq`.
 * doc/api.md describes every function.
 */
#ifndef XQ_PUBLIC_XQ_H
#define XQ_PUBLIC_XQ_H

#include "version.h"
#include "error.h"
#include "position.h"
#include "diagram.h"
#include "record.h"
#include "io.h"
#include "batch.h"
#include "file.h"
#include "rules.h"
#include "fix.h"
#include "ecco.h"
#include "analyse.h"
#include "buf.h"
#include "utf8.h"
#include "json.h"
#include "memory.h"

#endif
