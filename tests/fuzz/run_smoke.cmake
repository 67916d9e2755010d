# fuzz.smoke: cmake -DFUZZER=... -DSEED_DIR=... -DREGRESSION_DIR=... -DCORPUS_DIR=... -DDICT=... -DWORK_DIR=... -P run_smoke.cmake
# The regression inputs (once crashes or failures) and the campaign's kept
# corpus (corpus/) are run as part of the corpus.
# New inputs go to WORK_DIR/corpus (emptied first); a crash lands in WORK_DIR.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/corpus)
execute_process(COMMAND ${FUZZER} -seed=1 -runs=3000 -max_len=4096 -dict=${DICT}
                        -artifact_prefix=${WORK_DIR}/ ${WORK_DIR}/corpus ${SEED_DIR} ${REGRESSION_DIR} ${CORPUS_DIR}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(GLOB artifacts ${WORK_DIR}/crash-* ${WORK_DIR}/leak-* ${WORK_DIR}/oom-* ${WORK_DIR}/timeout-*)
  message(FATAL_ERROR "the fuzzer failed (${rc}); inputs: ${artifacts}")
endif()
