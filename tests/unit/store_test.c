/* store_test.c — unit tests of the store's safety rules: URIs with their password masked, run
 * uids (random and by content), the duplicate rule, and a damaged SQLite store refused with a
 * message (the PostgreSQL side of these is tests/cli/pgstore.sh, against a real server). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "test.h"
#include "results/store.h"
#ifdef HAVE_SQLITE
#include <sqlite3.h>
#endif

TEST(store_mask_uri_hides_passwords)
{
	char b[256];
	CHECK(!strcmp(store_mask_uri("postgresql://u:secret@db/x", b, sizeof b),
		      "postgresql://u:***@db/x"));
	CHECK(!strcmp(store_mask_uri("postgres://u:p@db:5432/x?sslmode=require", b, sizeof b),
		      "postgres://u:***@db:5432/x?sslmode=require"));
	CHECK(!strcmp(store_mask_uri("postgresql://u@db/x?password=secret&sslmode=require", b, sizeof b),
		      "postgresql://u@db/x?password=***&sslmode=require"));
	CHECK(!strcmp(store_mask_uri("postgresql://u:a@b@db/x?a=1&password=zz", b, sizeof b),
		      "postgresql://u:***@db/x?a=1&password=***"));
	CHECK(!strcmp(store_mask_uri("postgresql://db/x", b, sizeof b), "postgresql://db/x"));
	CHECK(!strcmp(store_mask_uri("/tmp/results.db", b, sizeof b), "/tmp/results.db"));
	/* no room to mask: nothing of the password shown */
	char small[24];
	store_mask_uri("postgresql://user:verysecretpassword@db/x", small, sizeof small);
	CHECK(!strstr(small, "secret"));
	CHECK(store_is_uri("postgres://x") && store_is_uri("postgresql://x") &&
	      !store_is_uri("postgresqlx://") && !store_is_uri("results.db"));
}

static struct run *tiny_run(const char *host, double v)
{
	struct run *r = run_new();
	r->host = strdup(host);
	r->label = strdup("a");
	kv_set(&r->facts, "kernel", "6.1");
	struct result *p = result_list_add(&r->results, "lat_syscall.null", "", NAN);
	p->value = v;
	p->unit = strdup("us");
	for (int k = 0; k < 3; k++)
		result_add_sample(p, (struct sample){ .value = v + k * 0.01, .iters = 1000,
						      .elapsed_ns = 1e6, .round = k });
	return r;
}

TEST(run_uids_random_and_by_content)
{
	struct run *a = tiny_run("box", 0.3), *b = tiny_run("box", 0.3), *c = tiny_run("box", 0.31);
	run_set_new_uid(a);
	run_set_new_uid(b);
	CHECK(uid_valid(a->uid) && uid_valid(b->uid) && strcmp(a->uid, b->uid) != 0);
	run_set_content_uid(a);
	free(b->label);
	b->label = strdup("another label"); /* relabelling is not a new run */
	run_set_content_uid(b);
	run_set_content_uid(c);
	CHECK(!strcmp(a->uid, b->uid));
	CHECK(strcmp(a->uid, c->uid) != 0);
	CHECK(!uid_valid("0123456789ABCDEF0123456789abcdef") && !uid_valid("abc") &&
	      !uid_valid(NULL));
	run_free(a);
	run_free(b);
	run_free(c);
}

#ifdef HAVE_SQLITE
static void rm_store(const char *path)
{
	char p[128];
	unlink(path);
	snprintf(p, sizeof p, "%s-wal", path);
	unlink(p);
	snprintf(p, sizeof p, "%s-shm", path);
	unlink(p);
}

TEST(store_duplicate_rule)
{
	char path[] = "/tmp/plumb-store-dup-XXXXXX", err[512];
	close(mkstemp(path));
	unlink(path);
	struct store *s = store_open(path, 1, err, sizeof err);
	CHECK(s != NULL);
	if (!s)
		return;
	struct run *a = tiny_run("box", 0.3), *b = tiny_run("box", 0.3), *c = tiny_run("box", 0.4);
	run_set_new_uid(a);
	b->uid = strdup(a->uid); /* the same run, arrived again */
	struct run *v[] = { a, c };
	CHECK(store_save_all(s, v, 2, err, sizeof err) == 0 && !a->dup && !c->dup);
	CHECK(store_save(s, b, err, sizeof err) == 0 && b->dup && b->id == a->id);
	struct run **list = NULL;
	int n = store_list(s, &list, err, sizeof err);
	CHECK(n == 2);
	for (int i = 0; i < n; i++)
		run_free(list[i]);
	free(list);
	struct run *l = store_load(s, a->id, err, sizeof err);
	CHECK(l && !strcmp(l->uid, a->uid));
	run_free(l);
	run_free(a);
	run_free(b);
	run_free(c);
	store_close(s);
	rm_store(path);
}

/* A store edited by hand: wrong types, huge and infinite values, bad text refused, one message. */
TEST(store_refuses_damaged_values)
{
	static const char *const damage[] = {
		"UPDATE runs SET rounds = 'many'",
		"UPDATE runs SET rounds = 5000000000",
		"UPDATE runs SET host = CAST(X'626f78ff' AS TEXT)",
		"UPDATE runs SET label = X'00'",
		"UPDATE results SET value = 9e999",
		"UPDATE results SET seq = 7",
		"UPDATE samples SET round = -1",
		"UPDATE runs SET uid = 'x'",
	};
	for (size_t i = 0; i < sizeof damage / sizeof damage[0]; i++) {
		char path[] = "/tmp/plumb-store-bad-XXXXXX", err[512] = "";
		close(mkstemp(path));
		unlink(path);
		struct store *s = store_open(path, 1, err, sizeof err);
		struct run *r = tiny_run("box", 0.3);
		CHECK(s && store_save(s, r, err, sizeof err) == 0);
		store_close(s);
		sqlite3 *db;
		sqlite3_open(path, &db);
		CHECK(sqlite3_exec(db, damage[i], NULL, NULL, NULL) == SQLITE_OK);
		sqlite3_close(db);
		s = store_open(path, 0, err, sizeof err);
		struct run *back = s ? store_load(s, r->id, err, sizeof err) : NULL;
		if (back || !strstr(err, "damaged"))
			test_fail(__FILE__, __LINE__, "%s: read back (%s)", damage[i], err);
		run_free(back);
		run_free(r);
		store_close(s);
		rm_store(path);
	}
}
#endif
