(define (problem blocks-1-unsat)
  (:domain toy-blocks)
  (:objects oak pine elm - block)
  (:init
    (handempty)
    (ontable oak)
    (on pine oak)
    (ontable elm)
    (clear pine)
    (clear elm))
  (:goal (and
    (on oak pine)
    (on pine oak))))
