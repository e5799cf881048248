"""The LaTeX evaluator: each registered formula's typeset LaTeX computed exactly, so that the
drift check can hold it equal to the code (:mod:`contracts.check.formulas`).

:mod:`~contracts.latex.tokens` cuts the LaTeX into tokens, :mod:`~contracts.latex.parser`
builds its syntax tree, :mod:`~contracts.latex.evaluator` evaluates it in the
:mod:`~contracts.latex.environment` of a formula's symbols, in the exact arithmetic of
:mod:`~contracts.latex.numbers`.
"""
