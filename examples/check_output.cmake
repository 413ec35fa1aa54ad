# cmake -DPROGRAM=... [-DARGS=a;b] -DEXPECTED=... -P check_output.cmake
# Runs PROGRAM (with ARGS) and fails unless it exits 0 and its standard output is the
# content of EXPECTED, byte for byte.
execute_process(COMMAND ${PROGRAM} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} exited with ${rc}:\n${err}")
endif()
file(READ ${EXPECTED} want)
if(NOT out STREQUAL want)
  message(FATAL_ERROR "${PROGRAM}: output differs.\n--- expected:\n${want}--- actual:\n${out}")
endif()
message(STATUS "${PROGRAM}: output as expected")
