/* rpc_xdr.h — the XDR routines lat_rpc's client (lat_rpc.c) and server (rpc_serve.c) share:
 * procedure 1 takes a char and returns one, the others take and return nothing. */
#ifndef PLUMB_RPC_XDR_H
#define PLUMB_RPC_XDR_H

#include <rpc/rpc.h>
#include <stdarg.h>

/* XDR routines with exactly xdrproc_t's type, so no function-pointer casts are needed. */
static inline bool_t x_void(XDR *x, ...)
{
	(void)x;
	return TRUE;
}

static inline bool_t x_char(XDR *x, ...)
{
	va_list ap;
	va_start(ap, x);
	char *p = va_arg(ap, char *);
	va_end(ap);
	return xdr_char(x, p);
}

#endif
