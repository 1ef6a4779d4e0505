// SPDX-License-Identifier: GPL-2.0-only
/*
 * sigreturn fuzzer: a handler edits the live signal frame as a seeded
 * generator says, then returns through it.  Each case runs in its own
 * child, several at a time, and ends one of two ways: the kernel takes
 * the frame and the code it names runs in a valid user state (EL0,
 * AArch64 or AArch32 as the frame says, interrupts unmasked) with the
 * registers the frame holds; or the kernel refuses it with SIGSEGV.  A
 * model of the ABI says which frames must be taken and which refused.
 *
 * aarch64: 64-bit frames (frame64.h).  armhf: AArch32 frames, ARM and
 * Thumb, sigreturn and rt_sigreturn (frame32.h).
 *
 * Every failure prints its case's seed and the command that replays it.
 */
#include "../stress/stress.h"
#include "../stress/fuzz.h"
#ifdef __aarch64__
#include "../stress/frame64.h"
#else
#include "../stress/frame32.h"
#endif

static struct fuzz_report *reports;

static struct {
	uint64_t cases, taken, refused, either_taken, either_refused;
	uint64_t sve_cases;
} count;

static struct stress_fails delivery = { "delivered frame", 0, 5 };
static struct stress_fails delivery_sve = { "delivered SVE frame", 0, 5 };
static struct stress_fails refused = { "valid frame refused", 0, 5 };
static struct stress_fails refused_sve = { "valid SVE frame refused", 0, 5 };
static struct stress_fails taken = { "invalid frame taken", 0, 5 };
static struct stress_fails state = { "resumed state", 0, 5 };
static struct stress_fails state_sve = { "resumed SVE state", 0, 5 };
static struct stress_fails odd = { "outcome", 0, 5 };

static uint64_t case_seed(uint64_t index)
{
	return stress.replay ? stress.replay_seed : stress_case_seed(index);
}

static void start_case(int slot, uint64_t index)
{
	fuzz_child(&reports[slot], case_seed(index), stress.replay);
}

static const char *expect_name(int e)
{
	return e == EXPECT_ACCEPT ? "must be taken" :
	       e == EXPECT_REJECT ? "must be refused" : "may go either way";
}

static void case_done(int slot, uint64_t index, int status)
{
	struct fuzz_report *r = &reports[slot];
	uint64_t seed = case_seed(index);
	int resumed = r->stage == STAGE_RESUMED;
	int segv = status != -1 && WIFSIGNALED(status) &&
		   WTERMSIG(status) == SIGSEGV;

	count.cases++;
	count.sve_cases += r->sve;
	if (r->delivery_bad)
		stress_fail(r->delivery_sve ? &delivery_sve : &delivery, seed,
			    "%s", r->delivery);

	if (status != -1 && WIFEXITED(status) && resumed &&
	    (WEXITSTATUS(status) == FUZZ_OK ||
	     WEXITSTATUS(status) == FUZZ_BAD_STATE)) {
		count.taken++;
		count.either_taken += r->expect == EXPECT_EITHER;
		if (r->expect == EXPECT_REJECT)
			stress_fail(&taken, seed, "%s;%s", r->expect_why,
				    r->what);
		if (WEXITSTATUS(status) == FUZZ_BAD_STATE)
			stress_fail(r->state_sve ? &state_sve : &state, seed,
				    "%s;%s", r->state, r->what);
	} else if (segv && r->stage == STAGE_MUTATED) {
		count.refused++;
		count.either_refused += r->expect == EXPECT_EITHER;
		if (r->expect == EXPECT_ACCEPT)
			stress_fail(r->sve ? &refused_sve : &refused, seed,
				    "%s", r->what);
	} else {
		stress_fail(&odd, seed, "%s at stage %d (frame %s: %s);%s",
			    stress_status(status), r->stage,
			    expect_name(r->expect), r->expect_why, r->what);
	}
	if (stress.replay)
		printf("# case 0x%016" PRIx64 ": %s at stage %d; the frame %s%s%s\n",
		       seed, stress_status(status), r->stage,
		       expect_name(r->expect), r->expect_why[0] ? ": " : "",
		       r->expect_why);
}

static const char *const names[] = {
	"frames_hold_the_interrupted_state",
	"sve_frames_hold_the_interrupted_state",
	"valid_frames_taken",
	"valid_sve_frames_taken",
	"invalid_frames_refused",
	"resumed_state_is_what_the_frame_holds",
	"resumed_sve_state_is_what_the_frame_holds",
	"every_case_ends_in_resume_or_sigsegv",
	"kernel_not_tainted",
};

static void result(int i, struct stress_fails *f, int skip)
{
	if (skip) {
		ktap_skip(names[i], "the CPU has no SVE");
		return;
	}
	ktap_result(!f->count, names[i], "%" PRIu64 " of %" PRIu64 " cases",
		    f->count, count.cases);
}

int main(void)
{
	struct stress_pool pool = {
		.watchdog = 30,
		.start = start_case,
		.done = case_done,
	};
	int nosve;
	double t;

	ktap_plan(9);
	stress_init("sigreturn");
	if (stress.replay_other)
		return stress_skip_all(names, 9);
	fuzz_probe();
	nosve = !fuzz_has_sve();
	reports = stress_shared(sizeof(*reports) * STRESS_MAX_SLOTS);
	pool.parallel = stress.replay ? 1 : stress_cpus();
	pool.max_cases = stress.replay ? 1 : 0;
	stress_taint_start();

	stress_run_pool(&pool);

	t = stress_elapsed();
	ktap_diag("%s/sigreturn: %" PRIu64 " frames in %.0f s (%.0f/s): %" PRIu64
		  " taken, %" PRIu64 " refused (of those that may go either way: %" PRIu64
		  " taken, %" PRIu64 " refused); %" PRIu64 " with SVE; seed 0x%016" PRIx64,
		  STRESS_ABI, count.cases, t, count.cases / (t > 0 ? t : 1),
		  count.taken, count.refused, count.either_taken,
		  count.either_refused, count.sve_cases, stress.seed);
	result(0, &delivery, 0);
	result(1, &delivery_sve, nosve);
	result(2, &refused, 0);
	result(3, &refused_sve, nosve);
	result(4, &taken, 0);
	result(5, &state, 0);
	result(6, &state_sve, nosve);
	ktap_result(!odd.count && count.cases, names[7],
		    "%" PRIu64 " of %" PRIu64 " cases ended otherwise",
		    odd.count, count.cases);
	stress_taint_result(names[8]);
	return ktap_finish();
}
