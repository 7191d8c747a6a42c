; A one-handed kitchen robot that opens containers, takes, washes and puts items (household statements s1-s11).
; reachable: a surface always (given in the initial state, never changed), a container while its door is open.
(define (domain kitchen-tidy)
  (:requirements :strips :typing :equality :negative-preconditions)
  (:types place item)
  (:predicates (robot-at ?p - place) (at ?i - item ?p - place) (holding ?i - item) (handempty)
               (container ?p - place) (door-open ?p - place) (door-closed ?p - place) (reachable ?p - place)
               (tap ?p - place) (clean ?i - item) (dirty ?i - item))
  (:action goto
    :parameters (?from - place ?to - place)
    :precondition (and (robot-at ?from) (not (= ?from ?to)))
    :effect (and (robot-at ?to) (not (robot-at ?from))))
  (:action open
    :parameters (?p - place)
    :precondition (and (robot-at ?p) (container ?p) (door-closed ?p) (handempty))
    :effect (and (door-open ?p) (reachable ?p) (not (door-closed ?p))))
  (:action close
    :parameters (?p - place)
    :precondition (and (robot-at ?p) (container ?p) (door-open ?p) (handempty))
    :effect (and (door-closed ?p) (not (door-open ?p)) (not (reachable ?p))))
  (:action take
    :parameters (?i - item ?p - place)
    :precondition (and (robot-at ?p) (at ?i ?p) (reachable ?p) (handempty))
    :effect (and (holding ?i) (not (at ?i ?p)) (not (handempty))))
  (:action put
    :parameters (?i - item ?p - place)
    :precondition (and (robot-at ?p) (holding ?i) (reachable ?p))
    :effect (and (at ?i ?p) (handempty) (not (holding ?i))))
  (:action wash
    :parameters (?i - item ?p - place)
    :precondition (and (robot-at ?p) (tap ?p) (holding ?i) (dirty ?i))
    :effect (and (clean ?i) (not (dirty ?i)))))
