# SPDX-License-Identifier: MIT
# The timeline: lanes, ruler, header column, navigation and painting.
target_sources(strobe_widgets PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/eventtooltip.cpp ${CMAKE_CURRENT_LIST_DIR}/eventtooltip.h
    ${CMAKE_CURRENT_LIST_DIR}/laneheader.cpp ${CMAKE_CURRENT_LIST_DIR}/laneheader.h
    ${CMAKE_CURRENT_LIST_DIR}/lanelayout.cpp ${CMAKE_CURRENT_LIST_DIR}/lanelayout.h
    ${CMAKE_CURRENT_LIST_DIR}/lanepainter.cpp ${CMAKE_CURRENT_LIST_DIR}/lanepainter.h
    ${CMAKE_CURRENT_LIST_DIR}/navigation.cpp ${CMAKE_CURRENT_LIST_DIR}/navigation.h
    ${CMAKE_CURRENT_LIST_DIR}/paintcontext.h
    ${CMAKE_CURRENT_LIST_DIR}/rulerticks.cpp ${CMAKE_CURRENT_LIST_DIR}/rulerticks.h
    ${CMAKE_CURRENT_LIST_DIR}/timelinecanvas.cpp ${CMAKE_CURRENT_LIST_DIR}/timelinecanvas.h
    ${CMAKE_CURRENT_LIST_DIR}/timelinecolors.cpp ${CMAKE_CURRENT_LIST_DIR}/timelinecolors.h
    ${CMAKE_CURRENT_LIST_DIR}/timelinelod.cpp ${CMAKE_CURRENT_LIST_DIR}/timelinelod.h
    ${CMAKE_CURRENT_LIST_DIR}/timelineoverlay.cpp
    ${CMAKE_CURRENT_LIST_DIR}/timelineview.cpp ${CMAKE_CURRENT_LIST_DIR}/timelineview.h
    ${CMAKE_CURRENT_LIST_DIR}/timeruler.cpp ${CMAKE_CURRENT_LIST_DIR}/timeruler.h
)
target_include_directories(strobe_widgets PUBLIC ${CMAKE_CURRENT_LIST_DIR})
