# SPDX-License-Identifier: MIT
# Statistics, occupancy, event details and the table models of the kernel and summary panels.
target_sources(strobe_model PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/statistics.h
    ${CMAKE_CURRENT_LIST_DIR}/formatting.cpp ${CMAKE_CURRENT_LIST_DIR}/formatting.h
    ${CMAKE_CURRENT_LIST_DIR}/kernelstats.cpp ${CMAKE_CURRENT_LIST_DIR}/kernelstats.h
    ${CMAKE_CURRENT_LIST_DIR}/nvtxstats.cpp ${CMAKE_CURRENT_LIST_DIR}/nvtxstats.h
    ${CMAKE_CURRENT_LIST_DIR}/nvtxprojection.cpp ${CMAKE_CURRENT_LIST_DIR}/nvtxprojection.h
    ${CMAKE_CURRENT_LIST_DIR}/gaps.cpp ${CMAKE_CURRENT_LIST_DIR}/gaps.h
    ${CMAKE_CURRENT_LIST_DIR}/memorystats.cpp ${CMAKE_CURRENT_LIST_DIR}/memorystats.h
    ${CMAKE_CURRENT_LIST_DIR}/occupancy.cpp ${CMAKE_CURRENT_LIST_DIR}/occupancy.h
    ${CMAKE_CURRENT_LIST_DIR}/eventdetails.cpp ${CMAKE_CURRENT_LIST_DIR}/eventdetails.h
    ${CMAKE_CURRENT_LIST_DIR}/reporttable.cpp ${CMAKE_CURRENT_LIST_DIR}/reporttable.h
    ${CMAKE_CURRENT_LIST_DIR}/reports.cpp ${CMAKE_CURRENT_LIST_DIR}/reports.h
    ${CMAKE_CURRENT_LIST_DIR}/tableroles.h
    ${CMAKE_CURRENT_LIST_DIR}/kerneltablemodel.cpp ${CMAKE_CURRENT_LIST_DIR}/kerneltablemodel.h
    ${CMAKE_CURRENT_LIST_DIR}/kernelsummarymodel.cpp ${CMAKE_CURRENT_LIST_DIR}/kernelsummarymodel.h
    ${CMAKE_CURRENT_LIST_DIR}/nvtxsummarymodel.cpp ${CMAKE_CURRENT_LIST_DIR}/nvtxsummarymodel.h
    ${CMAKE_CURRENT_LIST_DIR}/memorysummarymodel.cpp ${CMAKE_CURRENT_LIST_DIR}/memorysummarymodel.h
)
target_include_directories(strobe_model PUBLIC ${CMAKE_CURRENT_LIST_DIR})
