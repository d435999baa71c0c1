// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The kernel's mutex and lockdep for the userspace builds of driver/core
 * (<linux/mutex.h>, <linux/lockdep.h> in libruntime/inproc/include/).
 *
 * Lock classes are the kernel's: one per mutex_init() call site (its static
 * key), or the key lockdep_set_class() gives.  The order between classes is
 * not written down anywhere: it is learned while the program runs, as the
 * kernel's lockdep learns it.  Each thread keeps the locks it holds; taking
 * a lock of class B while one of class A is held records the dependency
 * A -> B.  A new dependency that closes a cycle (B already reaches A) is a
 * possible deadlock: it aborts at once with both locks and, for each step
 * of the other order, where it was first seen.  So an inversion is caught
 * the first time the second order runs, on any interleaving, and not one
 * run in a thousand as a hang.  Also caught: a second lock of a class this
 * thread holds (two of one class are never nested in the core), unlocking
 * or asserting a lock this thread does not hold, destroying a held one.
 *
 * The graph is small (the core has a handful of classes): a bit matrix,
 * read without a lock on the hot path (a dependency already known costs a
 * load per held lock), extended under one lock.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/mutex.h>

#define KH_OS_LOCK_CLASSES	64
#define KH_OS_LOCK_DEPTH	16

struct kh_os_lock_dep {
	const char *file;	/* where the dependency was first seen */
	int line;
};

static pthread_mutex_t kh_os_graph_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned int kh_os_n_classes;
static const char *kh_os_class_name[KH_OS_LOCK_CLASSES];
/* bit b of kh_os_after[a]: class b was taken while class a was held */
static u64 kh_os_after[KH_OS_LOCK_CLASSES];
static struct kh_os_lock_dep kh_os_dep[KH_OS_LOCK_CLASSES][KH_OS_LOCK_CLASSES];

struct kh_os_held {
	struct mutex *m;
	unsigned int cls;
	const char *file;
	int line;
};

/* the locks this thread holds, in the order taken */
static __thread struct kh_os_held kh_os_held[KH_OS_LOCK_DEPTH];
static __thread unsigned int kh_os_n_held;

void kh_os_bug(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "kohaku: driver core bug at %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* the class of a key, numbered on first use: 0 .. KH_OS_LOCK_CLASSES - 1 */
static unsigned int kh_os_class(struct lock_class_key *key, const char *name)
{
	unsigned int id = __atomic_load_n(&key->id, __ATOMIC_ACQUIRE);

	if (id)
		return id - 1;
	pthread_mutex_lock(&kh_os_graph_lock);
	id = key->id;
	if (!id) {
		if (kh_os_n_classes == KH_OS_LOCK_CLASSES)
			kh_os_bug(__FILE__, __LINE__, "more than %d lock classes (%s)",
				  KH_OS_LOCK_CLASSES, name);
		kh_os_class_name[kh_os_n_classes] = name;
		id = ++kh_os_n_classes;
		__atomic_store_n(&key->id, id, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&kh_os_graph_lock);
	return id - 1;
}

void kh_os_mutex_init(struct mutex *m, const char *name,
		      struct lock_class_key *key)
{
	pthread_mutex_init(&m->m, NULL);
	m->held = 0;
	m->key = key;
	m->name = name;
	m->cls = kh_os_class(key, name);
}

void kh_os_lockdep_set_class(struct mutex *m, struct lock_class_key *key,
			     const char *name)
{
	if (m->held)
		kh_os_bug(__FILE__, __LINE__, "lockdep_set_class(%s) on a held lock", name);
	m->key = key;
	m->name = name;
	m->cls = kh_os_class(key, name);
}

void kh_os_mutex_destroy(struct mutex *m, const char *file, int line)
{
	if (__atomic_load_n(&m->held, __ATOMIC_RELAXED))
		kh_os_bug(file, line, "mutex_destroy(%s): the lock is held", m->name);
	pthread_mutex_destroy(&m->m);
}

/*
 * A path from class @from to class @to in the dependencies known, as the
 * class before each one on it (@prev[to] ... back to @from), or false.
 */
static bool kh_os_path(unsigned int from, unsigned int to,
		       unsigned int prev[KH_OS_LOCK_CLASSES])
{
	unsigned int queue[KH_OS_LOCK_CLASSES], head = 0, tail = 0, k, b;
	u64 seen = 1ULL << from;

	queue[tail++] = from;
	while (head < tail) {
		k = queue[head++];
		if (k == to)
			return true;
		for (b = 0; b < kh_os_n_classes; b++) {
			if (!(kh_os_after[k] & (1ULL << b)) || (seen & (1ULL << b)))
				continue;
			seen |= 1ULL << b;
			prev[b] = k;
			queue[tail++] = b;
		}
	}
	return false;
}

static void __attribute__((noreturn))
kh_os_lockdep_cycle(const struct kh_os_held *h, unsigned int cls,
		    struct mutex *m, const char *file, int line,
		    const unsigned int prev[KH_OS_LOCK_CLASSES])
{
	unsigned int path[KH_OS_LOCK_CLASSES], n = 0, k;

	/* the known path cls -> ... -> h->cls, gathered from its end */
	for (k = h->cls; k != cls; k = prev[k])
		path[n++] = k;
	path[n++] = cls;
	fprintf(stderr,
		"kohaku: lockdep: possible circular locking dependency\n"
		"  %s:%d takes %s\n"
		"  while holding %s, taken at %s:%d;\n"
		"  the other order was seen before:\n",
		file, line, m->name, h->m->name, h->file, h->line);
	while (--n)
		fprintf(stderr, "    %s, then %s: first at %s:%d\n",
			kh_os_class_name[path[n]], kh_os_class_name[path[n - 1]],
			kh_os_dep[path[n]][path[n - 1]].file,
			kh_os_dep[path[n]][path[n - 1]].line);
	kh_os_bug(file, line, "lock order inversion: %s taken after %s",
		  m->name, h->m->name);
}

/* a dependency not seen before: held class h, then cls */
static void kh_os_lockdep_learn(const struct kh_os_held *h, unsigned int cls,
				struct mutex *m, const char *file, int line)
{
	unsigned int prev[KH_OS_LOCK_CLASSES];

	pthread_mutex_lock(&kh_os_graph_lock);
	if (!(kh_os_after[h->cls] & (1ULL << cls))) {
		if (kh_os_path(cls, h->cls, prev)) {
			pthread_mutex_unlock(&kh_os_graph_lock);
			kh_os_lockdep_cycle(h, cls, m, file, line, prev);
		}
		kh_os_dep[h->cls][cls].file = file;
		kh_os_dep[h->cls][cls].line = line;
		__atomic_or_fetch(&kh_os_after[h->cls], 1ULL << cls,
				  __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&kh_os_graph_lock);
}

void kh_os_mutex_lock(struct mutex *m, const char *file, int line)
{
	unsigned int cls = m->cls;
	unsigned int i;

	for (i = 0; i < kh_os_n_held; i++) {
		const struct kh_os_held *h = &kh_os_held[i];

		if (h->cls == cls)
			kh_os_bug(file, line,
				  "possible recursive locking: taking %s while holding %s (taken at %s:%d), of the same class",
				  m->name, h->m->name, h->file, h->line);
		if (!(__atomic_load_n(&kh_os_after[h->cls], __ATOMIC_ACQUIRE) &
		      (1ULL << cls)))
			kh_os_lockdep_learn(h, cls, m, file, line);
	}
	if (kh_os_n_held == KH_OS_LOCK_DEPTH)
		kh_os_bug(file, line, "more than %d locks held", KH_OS_LOCK_DEPTH);
	pthread_mutex_lock(&m->m);
	__atomic_store_n(&m->owner, pthread_self(), __ATOMIC_RELAXED);
	__atomic_store_n(&m->held, 1, __ATOMIC_RELAXED);
	kh_os_held[kh_os_n_held++] = (struct kh_os_held){ m, cls, file, line };
}

void kh_os_mutex_unlock(struct mutex *m, const char *file, int line)
{
	unsigned int i = kh_os_n_held;

	if (!kh_os_mutex_is_mine(m))
		kh_os_bug(file, line, "mutex_unlock(%s): this thread does not hold it",
			  m->name);
	while (i && kh_os_held[i - 1].m != m)
		i--;
	if (!i)
		kh_os_bug(file, line, "mutex_unlock(%s): not among the locks held",
			  m->name);
	for (; i < kh_os_n_held; i++)
		kh_os_held[i - 1] = kh_os_held[i];
	kh_os_n_held--;
	__atomic_store_n(&m->held, 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&m->m);
}
