; A porter robot with hands carrying exhibits between halls joined by passages (gripper statements s1-s8).
(define (domain museum-porter)
  (:requirements :strips :typing)
  (:types hall exhibit hand)
  (:predicates (robot-in ?r - hall) (passage ?a - hall ?b - hall) (stands ?e - exhibit ?r - hall)
               (holds ?h - hand ?e - exhibit) (empty ?h - hand))
  (:action walk
    :parameters (?from - hall ?to - hall)
    :precondition (and (robot-in ?from) (passage ?from ?to))
    :effect (and (robot-in ?to) (not (robot-in ?from))))
  (:action grasp
    :parameters (?e - exhibit ?r - hall ?h - hand)
    :precondition (and (robot-in ?r) (stands ?e ?r) (empty ?h))
    :effect (and (holds ?h ?e) (not (stands ?e ?r)) (not (empty ?h))))
  (:action release
    :parameters (?e - exhibit ?r - hall ?h - hand)
    :precondition (and (robot-in ?r) (holds ?h ?e))
    :effect (and (stands ?e ?r) (empty ?h) (not (holds ?h ?e)))))
