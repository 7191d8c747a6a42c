(define (problem gripper-1-unsat)
  (:domain museum-porter)
  (:objects atrium gallery storeroom - hall vase bust - exhibit left right - hand)
  (:init
    (robot-in atrium)
    (empty left)
    (empty right)
    (passage atrium gallery)
    (passage gallery atrium)
    (stands vase atrium)
    (stands bust gallery))
  (:goal (and
    (stands vase storeroom))))
