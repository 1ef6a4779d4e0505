# VARIANT=debug: merged over Kbuild.frag.  What kernel CI runs a suite
# under: memory errors (KASAN generic, KFENCE), locking (lockdep),
# sleeping in atomic context, undefined behaviour (UBSAN), list and
# timer-object corruption, and lockups.  Any report fails the run.
CONFIG_KASAN=y
CONFIG_KASAN_GENERIC=y
CONFIG_KASAN_INLINE=y
# VMAP_STACK (Kbuild.frag) needs KASAN's vmalloc shadow
CONFIG_KASAN_VMALLOC=y
CONFIG_KFENCE=y
CONFIG_PROVE_LOCKING=y
CONFIG_DEBUG_ATOMIC_SLEEP=y
CONFIG_UBSAN=y
CONFIG_UBSAN_BOUNDS=y
CONFIG_UBSAN_SHIFT=y
CONFIG_DEBUG_LIST=y
CONFIG_DEBUG_OBJECTS=y
CONFIG_DEBUG_OBJECTS_TIMERS=y
CONFIG_SOFTLOCKUP_DETECTOR=y
CONFIG_DETECT_HUNG_TASK=y
# full preemption, in place of Kbuild.frag's voluntary one: a task can
# be preempted anywhere outside a critical section, inside our user
# access windows and between a frame's checks and its commit too
# CONFIG_PREEMPT_VOLUNTARY is not set
CONFIG_PREEMPT=y
