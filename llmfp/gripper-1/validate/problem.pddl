(define (problem gripper-1)
  (:domain museum-porter)
  (:objects atrium gallery - hall vase - exhibit left right - hand)
  (:init
    (robot-in atrium)
    (empty left)
    (empty right)
    (passage atrium gallery)
    (passage gallery atrium)
    (stands vase atrium))
  (:goal (and
    (stands vase gallery))))
