; Floor painting on a grid: the robot paints neighbouring tiles and never steps on paint.
(define (domain painting)
  (:requirements :strips :typing)
  (:types tile colour)
  (:predicates
    (robot-on ?t - tile)
    (bare ?t - tile)                      ; not painted: the robot may stand on it or paint it
    (painted ?t - tile ?c - colour)
    (next-to ?a - tile ?b - tile)         ; share a side; listed in both directions
    (carrying ?c - colour))

  (:action move
    :parameters (?from - tile ?to - tile)
    :precondition (and (robot-on ?from) (next-to ?from ?to) (bare ?to))
    :effect (and (robot-on ?to) (not (robot-on ?from))))

  (:action paint
    :parameters (?from - tile ?target - tile ?c - colour)
    :precondition (and (robot-on ?from) (next-to ?from ?target) (bare ?target) (carrying ?c))
    :effect (and (painted ?target ?c) (not (bare ?target))))

  (:action swap-tin
    :parameters (?old - colour ?new - colour)
    :precondition (carrying ?old)
    :effect (and (carrying ?new) (not (carrying ?old)))))
