"""Reading cards by camera: sources, the card renderer, the read station and the table view."""
