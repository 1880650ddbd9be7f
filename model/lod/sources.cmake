# SPDX-License-Identifier: MIT
# Level of detail: the time <-> pixel mapping, the folding rule, per-row summaries and GPU
# utilisation.
target_sources(strobe_model PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/timemapping.h
    ${CMAKE_CURRENT_LIST_DIR}/foldruns.cpp ${CMAKE_CURRENT_LIST_DIR}/foldruns.h
    ${CMAKE_CURRENT_LIST_DIR}/rowsummary.cpp ${CMAKE_CURRENT_LIST_DIR}/rowsummary.h
    ${CMAKE_CURRENT_LIST_DIR}/utilization.cpp ${CMAKE_CURRENT_LIST_DIR}/utilization.h)
