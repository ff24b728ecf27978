"""Reading cards by camera. The modules directly in this package are what runs at a table
(sources, locating, flattening, the corner net, the read station and the table view);
``synthetic`` draws cards for tests and the demo, ``training`` rebuilds the models."""
