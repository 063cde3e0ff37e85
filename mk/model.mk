# model.mk - model checking of the runtime's protocols with Spin (issue 13).
#
#   make check-model   every model of tests/model/ checked exhaustively, then
#                      every mutant, which the checker must catch (a mutant
#                      that passes fails the target: the model would be blind
#                      to that mistake).  Needs `spin` (.ci/packages.d/model).
#
# Each entry: name:expect:model:defines (defines separated by commas).
# expect: pass, or fail / fail-assert / fail-deadlock for a mutant (a
# mistake put into the model on purpose, or the code as it was before a bug
# the checker found was fixed: a regression must be caught), or a vacuity
# check (deque-reach-*, task-reach-*: a path the pass runs must exercise is
# reachable).  task-known-*: a known bug left in the code, which the checker
# must keep finding until it is fixed (then the entry becomes a pass run).
# deque-owner-fifo-*, deque-reach-fifo-*, deque-mutant-fifo-*: the owner
# taking its oldest item under the lock (deque_take_oldest, Java's asyncMode;
# deque.pml -DOWNER_FIFO) against thieves: with tombstones at head (REMOVE),
# two thieves, and batch steals of two; the reach entries run the first
# one's configuration.  deque-owner-steals-*, deque-reach-own-steal-*: the
# owner stealing from its own deque as fj_help_quiesce does.  split-*: the
# split deque of the mode without membarrier (split.pml), typed frames only
# unless NITEMS gives item frames (public at once, a stolen one lowered past
# without a wait); split-owner-fifo-* the owner's take of its oldest item
# there, split-owner-steals-* the owner stealing from its own deque as
# fj_help_quiesce does.
# tests/model/check.sh runs one entry and prints states, depth, memory, time.
# MODEL_JOBS entries run at once (CI has 2 cores; the largest entry needs
# about 1.2 GB), so the lines come in the order the entries finish.

MODEL_WORK ?= build/model
MODEL_JOBS ?= 2

MODEL_RUNS := \
  deque-steal:pass:deque.pml: \
  deque-2-thieves:pass:deque.pml:-DNTHIEVES=2,-DSTEALS=1,-DNITEMS=1,-DNTYPED=1 \
  deque-2-thieves-items:pass:deque.pml:-DNTHIEVES=2,-DSTEALS=1,-DNITEMS=2,-DNTYPED=0 \
  deque-batch:pass:deque.pml:-DSTEALS=1,-DBATCH=2,-DCAP=4,-DNITEMS=2,-DNTYPED=2 \
  deque-compact:pass:deque.pml:-DNITEMS=3,-DNTYPED=0 \
  deque-reach-compact:fail-assert:deque.pml:-DREACH=1 \
  deque-reach-unfence:fail-assert:deque.pml:-DREACH=2 \
  deque-reach-wait-done:fail-assert:deque.pml:-DREACH=3 \
  deque-reach-typed-stops-batch:fail-assert:deque.pml:-DSTEALS=1,-DBATCH=2,-DCAP=4,-DNITEMS=2,-DNTYPED=2,-DREACH=4 \
  deque-reach-fenced-pop-keeps:fail-assert:deque.pml:-DREACH=5 \
  deque-reach-lower-item:fail-assert:deque.pml:-DREACH=6 \
  deque-reach-no-memory:fail-assert:deque.pml:-DNITEMS=3,-DNTYPED=0,-DREACH=7 \
  deque-overflow:pass:deque.pml:-DOVERFLOW,-DFIX_OVERFLOW_ORDER,-DNITEMS=2,-DNTYPED=2,-DSTEALS=1 \
  deque-reach-overflow:fail-assert:deque.pml:-DOVERFLOW,-DFIX_OVERFLOW_ORDER,-DNITEMS=2,-DNTYPED=2,-DSTEALS=1,-DREACH=8 \
  deque-mutant-overflow-overtaken:fail-assert:deque.pml:-DOVERFLOW,-DNITEMS=2,-DNTYPED=2 \
  deque-mutant-no-thief-fence:fail-assert:deque.pml:-DMUT_NO_THIEF_FENCE \
  deque-mutant-pop-loads-head-first:fail-assert:deque.pml:-DMUT_POP_LOADS_HEAD_FIRST \
  deque-mutant-fenced-pop-no-fence:fail-assert:deque.pml:-DMUT_POP_FENCED_NO_FENCE \
  deque-mutant-set-fenced-after-barrier:fail-assert:deque.pml:-DMUT_SET_FENCED_AFTER_BARRIER \
  deque-mutant-unlocked-unfence:fail-assert:deque.pml:-DMUT_UNLOCKED_UNFENCE \
  deque-mutant-lower-before-done:fail-assert:deque.pml:-DMUT_LOWER_BEFORE_DONE \
  deque-mutant-typed-not-first:fail-assert:deque.pml:-DSTEALS=1,-DBATCH=2,-DCAP=4,-DNITEMS=2,-DNTYPED=2,-DMUT_TYPED_NOT_FIRST \
  deque-remove:pass:deque.pml:-DREMOVE,-DUNPOP \
  deque-remove-sync:pass:deque.pml:-DREMOVE,-DCAP=3 \
  deque-remove-floor:pass:deque.pml:-DRUN_T,-DREMOVE,-DNTYPED=0,-DNITEMS=3,-DCAP=3,-DSTEALS=1 \
  deque-remove-compact:pass:deque.pml:-DREMOVE,-DNITEMS=4,-DCAP=3,-DNTYPED=0,-DSTEALS=1 \
  deque-leapfrog:pass:deque.pml:-DKIND1=RULE_FLOOR,-DNTYPED=0,-DREMOVE \
  deque-leapfrog-typed:pass:deque.pml:-DKIND1=RULE_FLOOR,-DSTEALS=1 \
  deque-take-queued:pass:deque.pml:-DKIND1=RULE_ITEM,-DREMOVE \
  deque-take-queued-2-thieves:pass:deque.pml:-DNTHIEVES=2,-DKIND1=RULE_ITEM,-DREMOVE,-DSTEALS=1,-DNITEMS=2,-DNTYPED=0 \
  deque-take-queued-past-tombs:pass:deque.pml:-DKIND1=RULE_ITEM,-DWANTED_ITEM=3,-DREMOVE,-DAWAIT_JOINER,-DNITEMS=3,-DCAP=3,-DSTEALS=3 \
  deque-reach-pop-past-tomb:fail-assert:deque.pml:-DRUN_T,-DREMOVE,-DNTYPED=0,-DNITEMS=3,-DCAP=3,-DSTEALS=1,-DREACH=9 \
  deque-reach-tomb:fail-assert:deque.pml:-DREMOVE,-DREACH=10 \
  deque-reach-steal-tomb:fail-assert:deque.pml:-DREMOVE,-DREACH=11 \
  deque-reach-unpop:fail-assert:deque.pml:-DREMOVE,-DUNPOP,-DREACH=12 \
  deque-reach-leapfrog-keeps:fail-assert:deque.pml:-DKIND1=RULE_FLOOR,-DNTYPED=0,-DREMOVE,-DREACH=13 \
  deque-reach-leapfrog-too-late:fail-assert:deque.pml:-DKIND1=RULE_FLOOR,-DNTYPED=0,-DREMOVE,-DREACH=14 \
  deque-reach-pop-tomb-floor:fail-assert:deque.pml:-DRUN_T,-DREMOVE,-DNTYPED=0,-DNITEMS=3,-DCAP=3,-DSTEALS=1,-DREACH=15 \
  deque-reach-item-refused:fail-assert:deque.pml:-DKIND1=RULE_ITEM,-DREMOVE,-DREACH=16 \
  deque-reach-leapfrog-floor:fail-assert:deque.pml:-DKIND1=RULE_FLOOR,-DNTYPED=0,-DREMOVE,-DREACH=17 \
  deque-reach-take-queued:fail-assert:deque.pml:-DKIND1=RULE_ITEM,-DREMOVE,-DREACH=18 \
  deque-reach-compact-tomb:fail-assert:deque.pml:-DREMOVE,-DNITEMS=4,-DCAP=3,-DNTYPED=0,-DSTEALS=1,-DREACH=19 \
  deque-reach-sync-past-tomb:fail-assert:deque.pml:-DREMOVE,-DCAP=3,-DREACH=20 \
  deque-reach-sync-lowers-tomb:fail-assert:deque.pml:-DREMOVE,-DCAP=3,-DREACH=21 \
  deque-reach-owner-awaits-joiner:fail-assert:deque.pml:-DKIND1=RULE_ITEM,-DWANTED_ITEM=3,-DREMOVE,-DAWAIT_JOINER,-DNITEMS=3,-DCAP=3,-DSTEALS=3,-DREACH=22 \
  deque-reach-item-rule-passes-tomb:fail-assert:deque.pml:-DKIND1=RULE_ITEM,-DREMOVE,-DREACH=23 \
  deque-mutant-item-rule-stops-at-tomb:fail-deadlock:deque.pml:-DKIND1=RULE_ITEM,-DWANTED_ITEM=3,-DREMOVE,-DAWAIT_JOINER,-DNITEMS=3,-DCAP=3,-DSTEALS=3,-DMUT_ITEM_RULE_STOPS_AT_TOMB \
  deque-mutant-remove-unlocked:fail-assert:deque.pml:-DREMOVE,-DMUT_REMOVE_UNLOCKED \
  deque-mutant-steal-takes-tomb:fail-assert:deque.pml:-DREMOVE,-DMUT_STEAL_TAKES_TOMB \
  deque-mutant-tomb-pop-no-floor:fail-assert:deque.pml:-DRUN_T,-DREMOVE,-DNTYPED=0,-DNITEMS=3,-DCAP=3,-DSTEALS=1,-DMUT_TOMB_POP_NO_FLOOR \
  deque-mutant-wanted-early:fail-assert:deque.pml:-DKIND1=RULE_FLOOR,-DNTYPED=0,-DMUT_WANTED_EARLY \
  deque-mutant-ruled-item-before-claim:fail-assert:deque.pml:-DKIND1=RULE_ITEM,-DMUT_RULED_ITEM_BEFORE_CLAIM \
  deque-mutant-thief-before-floor:fail-assert:deque.pml:-DKIND1=RULE_FLOOR,-DNTYPED=0,-DMUT_THIEF_BEFORE_FLOOR \
  deque-mutant-leave-floor-before-done:fail-assert:deque.pml:-DKIND1=RULE_FLOOR,-DNTYPED=0,-DMUT_LEAVE_FLOOR_BEFORE_DONE \
  deque-owner-fifo-remove:pass:deque.pml:-DOWNER_FIFO,-DREMOVE \
  deque-owner-fifo-2-thieves:pass:deque.pml:-DOWNER_FIFO,-DNTHIEVES=2,-DSTEALS=1,-DNITEMS=2,-DNTYPED=0,-DREMOVE \
  deque-owner-fifo-batch:pass:deque.pml:-DOWNER_FIFO,-DSTEALS=1,-DBATCH=2,-DCAP=4,-DNITEMS=4,-DNTYPED=0,-DREMOVE \
  deque-reach-fifo-takes:fail-assert:deque.pml:-DOWNER_FIFO,-DREMOVE,-DREACH=24 \
  deque-reach-fifo-takes-fenced:fail-assert:deque.pml:-DOWNER_FIFO,-DREMOVE,-DREACH=25 \
  deque-reach-fifo-past-tomb:fail-assert:deque.pml:-DOWNER_FIFO,-DREMOVE,-DREACH=26 \
  deque-reach-fifo-typed-oldest:fail-assert:deque.pml:-DOWNER_FIFO,-DREMOVE,-DREACH=27 \
  deque-mutant-fifo-unlocked:fail-assert:deque.pml:-DOWNER_FIFO,-DMUT_FIFO_UNLOCKED \
  deque-mutant-fifo-takes-typed:fail-deadlock:deque.pml:-DOWNER_FIFO,-DMUT_FIFO_TAKES_TYPED \
  deque-owner-steals:pass:deque.pml:-DOWNER_STEALS,-DREMOVE \
  deque-owner-steals-2-thieves:pass:deque.pml:-DOWNER_STEALS,-DNTHIEVES=2,-DSTEALS=1,-DNITEMS=2,-DNTYPED=0 \
  deque-owner-steals-typed:pass:deque.pml:-DOWNER_STEALS,-DNITEMS=0,-DNTYPED=2 \
  deque-reach-own-steal-tomb:fail-assert:deque.pml:-DOWNER_STEALS,-DREMOVE,-DREACH=28 \
  deque-reach-own-steal-item:fail-assert:deque.pml:-DOWNER_STEALS,-DREMOVE,-DREACH=29 \
  deque-reach-own-steal-typed:fail-assert:deque.pml:-DOWNER_STEALS,-DREMOVE,-DREACH=30 \
  deque-mutant-own-steal-unlocked:fail-assert:deque.pml:-DOWNER_STEALS,-DMUT_OWN_STEAL_UNLOCKED \
  task-join-wake:pass:task.pml:-DSKIP_OUTCOME \
  task-join-wake-external:pass:task.pml:-DSKIP_OUTCOME,-DEXTERNAL_WAITER \
  task-join-wake-worker:pass:task.pml:-DSKIP_OUTCOME,-DWORKER_WAITER \
  task-outcome:pass:task.pml: \
  task-outcome-external:pass:task.pml:-DEXTERNAL_WAITER \
  task-outcome-worker:pass:task.pml:-DWORKER_WAITER \
  task-outcome-two-settlers:pass:task.pml:-DSECOND_SETTLER \
  task-is-done-not-while-running:pass:task.pml:-DSKIP_OUTCOME,-DCHECK_IS_DONE \
  task-mutant-settle-no-pending:fail-assert:task.pml:-DMUT_SETTLE_NO_PENDING \
  task-mutant-settle-no-heavy-fence:fail-assert:task.pml:-DMUT_SETTLE_NO_HEAVY_FENCE \
  task-mutant-aftermath-no-wait:fail-assert:task.pml:-DMUT_AFTERMATH_NO_WAIT \
  task-mutant-settle-ignores-pending:fail-assert:task.pml:-DSECOND_SETTLER,-DMUT_SETTLE_IGNORES_PENDING \
  task-mutant-body-error-lost:fail-assert:task.pml:-DMUT_BODY_ERROR_LOST \
  task-mutant-is-done-sees-abort:fail-assert:task.pml:-DSKIP_OUTCOME,-DCHECK_IS_DONE,-DMUT_IS_DONE_SEES_ABORT \
  task-mutant-no-waiter-heavy-fence:fail-deadlock:task.pml:-DSKIP_OUTCOME,-DEXTERNAL_WAITER,-DMUT_NO_WAITER_HEAVY_FENCE \
  task-mutant-no-waiter-heavy-fence-worker:fail-deadlock:task.pml:-DSKIP_OUTCOME,-DWORKER_WAITER,-DMUT_NO_WAITER_HEAVY_FENCE \
  task-mutant-no-park-recheck:fail-deadlock:task.pml:-DSKIP_OUTCOME,-DMUT_NO_PARK_RECHECK \
  task-mutant-inline-loads-flags-first:fail-deadlock:task.pml:-DSKIP_OUTCOME,-DEXTERNAL_WAITER,-DMUT_INLINE_LOADS_FLAGS_FIRST \
  task-later:pass:task.pml:-DLATER \
  task-later-external:pass:task.pml:-DLATER,-DEXTERNAL_WAITER \
  task-later-worker:pass:task.pml:-DLATER,-DWORKER_WAITER \
  task-later-two-settlers:pass:task.pml:-DLATER,-DSECOND_SETTLER \
  task-later-cc:pass:task.pml:-DCC \
  task-reach-mark-publishes-stolen:fail-assert:task.pml:-DLATER,-DREACH=1 \
  task-reach-mark-publishes-inline:fail-assert:task.pml:-DLATER,-DREACH=2 \
  task-reach-mark-waits-pending:fail-assert:task.pml:-DLATER,-DREACH=3 \
  task-reach-mark-cas-fails:fail-assert:task.pml:-DLATER,-DREACH=4 \
  task-reach-settle-wakes-parked-owner:fail-assert:task.pml:-DLATER,-DREACH=5 \
  task-reach-settle-wakes-futex:fail-assert:task.pml:-DLATER,-DEXTERNAL_WAITER,-DREACH=6 \
  task-reach-mark-wakes-parked-owner:fail-assert:task.pml:-DLATER,-DREACH=7 \
  task-reach-settle-wakes-inline-joiner:fail-assert:task.pml:-DLATER,-DREACH=8 \
  task-reach-cc-completer-wakes-owner:fail-assert:task.pml:-DCC,-DREACH=9 \
  task-reach-cc-settled-error-published:fail-assert:task.pml:-DCC,-DREACH=10 \
  task-mutant-mark-plain-store:fail-deadlock:task.pml:-DLATER,-DMUT_MARK_PLAIN_STORE \
  task-mutant-mark-ignores-settled:fail-deadlock:task.pml:-DLATER,-DMUT_MARK_IGNORES_SETTLED \
  task-mutant-settle-ignores-later:fail-deadlock:task.pml:-DLATER,-DMUT_SETTLE_IGNORES_LATER \
  task-mutant-mark-no-wake:fail-deadlock:task.pml:-DLATER,-DMUT_MARK_NO_WAKE \
  task-mutant-settle-later-no-wake:fail-deadlock:task.pml:-DLATER,-DMUT_SETTLE_LATER_NO_WAKE \
  task-mutant-settle-wake-reloads:fail-assert:task.pml:-DLATER,-DMUT_SETTLE_WAKE_RELOADS \
  task-mutant-executor-publishes:fail-assert:task.pml:-DLATER,-DMUT_EXECUTOR_PUBLISHES \
  task-mutant-executor-publishes-cc:fail-assert:task.pml:-DCC,-DMUT_EXECUTOR_PUBLISHES \
  task-mutant-complete-later-store:fail-deadlock:task.pml:-DCC,-DMUT_COMPLETE_LATER_STORE \
  task-mutant-cc-settled-error-lost:fail-deadlock:task.pml:-DCC,-DMUT_CC_SETTLED_ERROR_LOST \
  task-cc-settler-fails:pass:task.pml:-DCC,-DCC_SETTLER_FAILS \
  task-reach-cc-plain-fail-published:fail-assert:task.pml:-DCC,-DCC_SETTLER_FAILS,-DREACH=11 \
  task-reach-cc-thief-leaves-it-to-failer:fail-assert:task.pml:-DCC,-DCC_SETTLER_FAILS,-DREACH=12 \
  task-reach-cc-owner-waits-for-failer:fail-assert:task.pml:-DCC,-DCC_SETTLER_FAILS,-DREACH=13 \
  task-mutant-cc-plain-fail-unpublished:fail-deadlock:task.pml:-DCC,-DCC_SETTLER_FAILS,-DMUT_CC_PLAIN_FAIL_UNPUBLISHED \
  task-mutant-cc-ignores-failer-publishes:fail-assert:task.pml:-DCC,-DCC_SETTLER_FAILS,-DMUT_CC_IGNORES_FAILER_PUBLISHES \
  task-mutant-executor-ignores-failer-publishes:fail-assert:task.pml:-DCC,-DCC_SETTLER_FAILS,-DMUT_EXECUTOR_IGNORES_FAILER_PUBLISHES \
  idle-fork:pass:idle.pml: \
  idle-submit:pass:idle.pml:-DSUBMIT \
  idle-mutant-no-park-fence:fail-deadlock:idle.pml:-DMUT_NO_PARK_FENCE \
  idle-mutant-no-park-recheck:fail-deadlock:idle.pml:-DMUT_NO_PARK_RECHECK \
  idle-mutant-word-read-late:fail-deadlock:idle.pml:-DMUT_WORD_READ_LATE \
  idle-mutant-signal-before-push:fail-deadlock:idle.pml:-DMUT_SIGNAL_BEFORE_PUSH \
  idle-spawn:pass:idle.pml:-DSPAWN \
  idle-spawn-3:pass:idle.pml:-DSPAWN,-DNITEMS=3 \
  idle-mutant-hint-not-set:fail-deadlock:idle.pml:-DSPAWN,-DMUT_HINT_NOT_SET \
  idle-mutant-hint-clear-unchecked:fail-deadlock:idle.pml:-DSPAWN,-DMUT_HINT_CLEAR_UNCHECKED \
  idle-mutant-hint-set-before-sleepers:fail-deadlock:idle.pml:-DSPAWN,-DMUT_HINT_SET_BEFORE_SLEEPERS \
  split:pass:split.pml: \
  split-publish-unasked:pass:split.pml:-DPUBLISH_ANY \
  split-reach-steal:fail-assert:split.pml:-DREACH=1 \
  split-reach-ask:fail-assert:split.pml:-DREACH=2 \
  split-reach-publish:fail-assert:split.pml:-DREACH=3 \
  split-reach-wait-stolen:fail-assert:split.pml:-DREACH=4 \
  split-reach-shrink-locked:fail-assert:split.pml:-DREACH=5 \
  split-reach-give-back:fail-assert:split.pml:-DREACH=6 \
  split-reach-shrink-unlocked:fail-assert:split.pml:-DREACH=7 \
  split-reach-last-take-asks:fail-assert:split.pml:-DREACH=8 \
  split-reach-empty-sync-asks:fail-assert:split.pml:-DREACH=9 \
  split-mutant-no-shrink-fence:fail-assert:split.pml:-DMUT_NO_SHRINK_FENCE \
  split-mutant-no-thief-fence:fail-assert:split.pml:-DMUT_NO_THIEF_FENCE \
  split-mutant-sync-reads-thieves-end:fail-assert:split.pml:-DMUT_SYNC_READS_THIEVES_END \
  split-mutant-thief-past-split:fail-assert:split.pml:-DMUT_THIEF_PAST_SPLIT \
  split-items:pass:split.pml:-DNITEMS=1,-DSTEALS=1 \
  split-items-1-thief:pass:split.pml:-DNITEMS=2,-DNTHIEVES=1,-DSTEALS=3 \
  split-reach-item-stolen:fail-assert:split.pml:-DNITEMS=1,-DREACH=10 \
  split-mutant-item-pop-waits:fail-deadlock:split.pml:-DNITEMS=1,-DMUT_ITEM_POP_WAITS \
  split-owner-fifo:pass:split.pml:-DOWNER_FIFO,-DNITEMS=2,-DSTEALS=1 \
  split-owner-fifo-1-thief:pass:split.pml:-DOWNER_FIFO,-DNITEMS=2,-DNTHIEVES=1,-DSTEALS=3 \
  split-reach-fifo-takes:fail-assert:split.pml:-DOWNER_FIFO,-DNITEMS=2,-DREACH=11 \
  split-reach-fifo-typed-oldest:fail-assert:split.pml:-DOWNER_FIFO,-DNITEMS=2,-DREACH=12 \
  split-reach-fifo-asks:fail-assert:split.pml:-DOWNER_FIFO,-DNITEMS=2,-DREACH=13 \
  split-reach-fifo-lowered:fail-assert:split.pml:-DOWNER_FIFO,-DNITEMS=2,-DREACH=14 \
  split-mutant-fifo-unlocked:fail-assert:split.pml:-DOWNER_FIFO,-DNITEMS=2,-DMUT_FIFO_UNLOCKED \
  split-mutant-fifo-takes-typed:fail-deadlock:split.pml:-DOWNER_FIFO,-DNITEMS=2,-DNTHIEVES=1,-DMUT_FIFO_TAKES_TYPED \
  split-owner-steals:pass:split.pml:-DOWNER_STEALS,-DSTEALS=1 \
  split-owner-steals-items:pass:split.pml:-DOWNER_STEALS,-DNITEMS=1,-DNTHIEVES=1,-DSTEALS=3 \
  split-reach-own-steal-done:fail-assert:split.pml:-DOWNER_STEALS,-DNITEMS=1,-DREACH=15

.PHONY: check-model

check-model:
	@command -v spin >/dev/null || { echo "check-model needs spin: sh tools/install-deps.sh" >&2; exit 1; }
	@printf '%s\n' $(MODEL_RUNS) | xargs -n 1 -P $(MODEL_JOBS) sh -c '\
	  run=$$1; name=$${run%%:*}; rest=$${run#*:}; expect=$${rest%%:*}; rest=$${rest#*:}; \
	  model=$${rest%%:*}; defines=$$(echo "$${rest#*:}" | tr "," " "); \
	  sh tests/model/check.sh $(MODEL_WORK) $$name $$expect tests/model/$$model $$defines' sh || \
	  { echo "check-model: some entries FAILED (lines above)" >&2; exit 1; }
