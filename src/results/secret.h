/*
 * secret.h — keeping a database password out of every message, log and stored fact.
 *
 * A PostgreSQL store is named by a URI, postgresql://user:password@host/db?..., where a user
 * may write an '@' or '/' in the password without percent-encoding it. libpq would end the
 * user part at the first '@' and show the rest of the password as a host name; plumb reads the
 * user part up to the last '@' before the query, masks that password in every name it prints,
 * and hands libpq the URI with those characters encoded, so both read the same password.
 * Messages from libpq are masked again: every substring of a known password (four characters
 * or more; a shorter password whole, where it stands as a word), and every password=VALUE (URI query or keyword/value
 * form, quoted or not), whatever string it is in.
 */
#ifndef PLUMB_SECRET_H
#define PLUMB_SECRET_H

#include <stddef.h>

/* The password a URI holds, as written (user part or password= in the query), or NULL. */
char *uri_password(const char *uri);
/* Whether a URI gives a password twice, in its user part and as ?password= (one would be
 * masked, and pieces of the other could show in libpq's messages: refused). */
int uri_two_passwords(const char *uri);
/* uri with '@' and '/' inside its user part percent-encoded (malloc'd): what libpq gets. */
char *uri_for_libpq(const char *uri);
/* msg with every secret (a NULL-ended list; NULL or empty entries skipped) and every
 * password=VALUE replaced by "***", newlines by "; ". */
void mask_secrets(const char *msg, const char *const *secrets, char *out, size_t outlen);

#endif
