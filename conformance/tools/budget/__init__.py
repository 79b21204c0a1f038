"""``pas budget``: how many prompt tokens plugin activation scheduling saves, run by run.

``tokenizer`` counts tokens (a real offline BPE vocabulary, or a labelled estimate),
``measure`` drives the reference scheduler with and without scheduling, ``report`` renders
text and JSON, ``chart`` draws both curves.
"""

# The tokenizer names, here so that building the ``pas`` parser does not import the tokenizer.
AUTO, CL100K, ESTIMATE = "auto", "cl100k_base", "estimate"
TOKENIZER_NAMES = (AUTO, CL100K, ESTIMATE)
