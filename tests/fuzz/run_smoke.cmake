# fuzz.smoke, fuzz.smoke.gpu: cmake -DFUZZER=... -DSEED_DIR=... -DREGRESSION_DIR=... -DCORPUS_DIR=... -DDICT=... -DWORK_DIR=... -DRUNS=... -P run_smoke.cmake
# The regression inputs (once crashes or failures) and the campaign's kept
# corpus are run as part of the corpus (a directory that does not exist is left out).
# New inputs go to WORK_DIR/corpus (emptied first); a crash lands in WORK_DIR.
# MAX_LEN: the longest input (default 4096; fuzz_emit_bitcode's are bitcode).
if(NOT MAX_LEN)
  set(MAX_LEN 4096)
endif()
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/corpus)
set(dirs ${WORK_DIR}/corpus ${SEED_DIR})
foreach(dir ${REGRESSION_DIR} ${CORPUS_DIR})
  if(IS_DIRECTORY ${dir})
    list(APPEND dirs ${dir})
  endif()
endforeach()
execute_process(COMMAND ${FUZZER} -seed=1 -runs=${RUNS} -max_len=${MAX_LEN} -dict=${DICT}
                        -artifact_prefix=${WORK_DIR}/ ${dirs}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(GLOB artifacts ${WORK_DIR}/crash-* ${WORK_DIR}/leak-* ${WORK_DIR}/oom-* ${WORK_DIR}/timeout-*)
  message(FATAL_ERROR "the fuzzer failed (${rc}); inputs: ${artifacts}")
endif()
