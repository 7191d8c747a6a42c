"""The four benchmark domains, each a module with NAME, WORDS, INPUT_FORMAT, DOMAIN, EXAMPLE, instances()."""

from . import bike, blocks, painting, porter

DOMAINS = (blocks, porter, bike, painting)
