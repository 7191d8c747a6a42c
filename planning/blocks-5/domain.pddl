; Blocksworld, our own wording: one arm, blocks on a table or on one another.
; (free ?b): nothing stands on ?b and the arm does not hold it.
(define (domain blocks)
  (:requirements :strips :typing)
  (:types block)
  (:predicates
    (on ?b - block ?under - block)  ; ?b stands directly on ?under
    (on-table ?b - block)
    (free ?b - block)
    (holding ?b - block)
    (arm-empty))

  ; lift a free block off the table
  (:action pick-up
    :parameters (?b - block)
    :precondition (and (free ?b) (on-table ?b) (arm-empty))
    :effect (and (holding ?b) (not (free ?b)) (not (on-table ?b)) (not (arm-empty))))

  ; set the held block on the table
  (:action put-down
    :parameters (?b - block)
    :precondition (holding ?b)
    :effect (and (on-table ?b) (free ?b) (arm-empty) (not (holding ?b))))

  ; set the held block on a free block
  (:action stack
    :parameters (?b - block ?under - block)
    :precondition (and (holding ?b) (free ?under))
    :effect (and (on ?b ?under) (free ?b) (arm-empty) (not (holding ?b)) (not (free ?under))))

  ; lift a free block off the block it stands on
  (:action unstack
    :parameters (?b - block ?under - block)
    :precondition (and (on ?b ?under) (free ?b) (arm-empty))
    :effect (and (holding ?b) (free ?under) (not (on ?b ?under)) (not (free ?b)) (not (arm-empty)))))
