# SPDX-License-Identifier: MIT
# Kernel table, detail pane and statistics panels.
target_sources(strobe_widgets PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/tableexport.cpp ${CMAKE_CURRENT_LIST_DIR}/tableexport.h
    ${CMAKE_CURRENT_LIST_DIR}/kerneltablewidget.cpp ${CMAKE_CURRENT_LIST_DIR}/kerneltablewidget.h
    ${CMAKE_CURRENT_LIST_DIR}/detailpane.cpp ${CMAKE_CURRENT_LIST_DIR}/detailpane.h
    ${CMAKE_CURRENT_LIST_DIR}/statisticswidget.cpp ${CMAKE_CURRENT_LIST_DIR}/statisticswidget.h
)
target_include_directories(strobe_widgets PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_sources(strobe_widgets PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/gapspanel.cpp ${CMAKE_CURRENT_LIST_DIR}/gapspanel.h
)
