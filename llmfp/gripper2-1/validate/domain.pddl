; Two courier robots, each with two arms, carrying sample trays between wards joined by corridors
; (gripper2 statements s1-s8).
(define (domain courier-pair)
  (:requirements :strips :typing)
  (:types ward tray robot arm)
  (:predicates (at ?r - robot ?w - ward) (corridor ?a - ward ?b - ward) (lies ?t - tray ?w - ward)
               (carries ?r - robot ?a - arm ?t - tray) (free ?r - robot ?a - arm))
  (:action walk
    :parameters (?r - robot ?from - ward ?to - ward)
    :precondition (and (at ?r ?from) (corridor ?from ?to))
    :effect (and (at ?r ?to) (not (at ?r ?from))))
  (:action pick
    :parameters (?r - robot ?t - tray ?w - ward ?a - arm)
    :precondition (and (at ?r ?w) (lies ?t ?w) (free ?r ?a))
    :effect (and (carries ?r ?a ?t) (not (lies ?t ?w)) (not (free ?r ?a))))
  (:action drop
    :parameters (?r - robot ?t - tray ?w - ward ?a - arm)
    :precondition (and (at ?r ?w) (carries ?r ?a ?t))
    :effect (and (lies ?t ?w) (free ?r ?a) (not (carries ?r ?a ?t)))))
