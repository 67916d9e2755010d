# Runs gac-opt on some of the binaries malformed_test wrote. For each:
#   - exit status 1 and an "error:" line naming the file on stderr, nothing on stdout;
#   - `-o out.spv` creates no out.spv (nor a leftover temporary file);
#   - a pre-existing out.spv is left untouched.
# cmake -DGAC_OPT=... -DCASES_DIR=... -DWORK_DIR=... -P run_gac_opt.cmake
set(cases empty odd_length bad_magic bound_zero truncated_instruction word_count_zero
          result_id_at_bound capability_after_type missing_function_end unknown_import_name)

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(out ${WORK_DIR}/out.spv)
set(failures 0)

function(check_run name input)
  execute_process(COMMAND ${GAC_OPT} ${ARGN} ${input} -o ${out}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  # Appends to the caller's `problems`.
  if(NOT rc EQUAL 1)
    string(APPEND problems " exit status ${rc}, not 1;")
  endif()
  if(NOT stderr MATCHES "${name}\\.spv: error: ")
    string(APPEND problems " no '${name}.spv: error:' on stderr;")
  endif()
  if(NOT stdout STREQUAL "")
    string(APPEND problems " output on stdout;")
  endif()
  file(GLOB leftovers ${WORK_DIR}/out.spv.tmp*)
  if(leftovers)
    string(APPEND problems " left ${leftovers};")
    file(REMOVE ${leftovers})
  endif()
  set(problems "${problems}" PARENT_SCOPE)
  set(stderr "${stderr}" PARENT_SCOPE)
endfunction()

foreach(name ${cases})
  set(input ${CASES_DIR}/${name}.spv)
  if(NOT EXISTS ${input})
    message(SEND_ERROR "FAIL ${name}: ${input} is missing (malformed.reader writes it)")
    math(EXPR failures "${failures} + 1")
    continue()
  endif()

  # No output file yet: none may appear. --validate and --print must not change that.
  set(problems "")
  file(REMOVE ${out})
  check_run(${name} ${input} --validate --print)
  if(EXISTS ${out})
    string(APPEND problems " created out.spv;")
  endif()

  # An existing output file must keep its contents.
  file(WRITE ${out} "precious")
  check_run(${name} ${input})
  file(READ ${out} kept)
  if(NOT kept STREQUAL "precious")
    string(APPEND problems " overwrote the existing out.spv;")
  endif()

  if(problems)
    message("FAIL ${name}:${problems} stderr: ${stderr}")
    math(EXPR failures "${failures} + 1")
  else()
    string(STRIP "${stderr}" first_line)
    string(REGEX REPLACE "\n.*" "" first_line "${first_line}")
    message("PASS ${name}: ${first_line}")
  endif()
endforeach()

list(LENGTH cases total)
math(EXPR passed "${total} - ${failures}")
message("${passed} passed, ${failures} failed")
if(failures)
  message(FATAL_ERROR "gac-opt mishandled malformed input")
endif()
