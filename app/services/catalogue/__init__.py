"""The catalogue as callers read it: contents, their cards, lists and filters, reference lists, the site."""
