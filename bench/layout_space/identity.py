"""Identity documents and residence permits: drawn from bench.synthetic's card and passport layouts (development
and held-out alike), the layout and the holder chosen by the seed. Their machine-readable zone is a standard,
so the space varies who holds the card, the card's design and how it was captured, not the zone's format."""
import random

from bench.layout_space import Generated


def draw(document_type: str, rng: random.Random, seed: int, rendering: str) -> Generated:
    import bench.synthetic as synthetic
    layout_id = rng.choice(synthetic.layouts(document_type))
    doc = synthetic.generate(document_type, layout_id, rng.randrange(10 ** 6), rendering)
    name = f"{document_type}_s{seed}_{rendering}"
    return Generated(name=name, document_type=document_type, layout=doc.layout, split="space", rendering=rendering,
                     data=doc.data, filename=f"{name}.{doc.filename.rsplit('.', 1)[1]}", fields=doc.fields,
                     person=doc.person, traits={"layout": doc.layout})
