"""``pas budget``: how many prompt tokens plugin activation scheduling saves, run by run.

``tokenizer`` counts tokens (a real offline BPE vocabulary, or a labelled estimate),
``measure`` drives the reference scheduler with and without scheduling, ``report`` renders
text and JSON, ``chart`` draws both curves.
"""
