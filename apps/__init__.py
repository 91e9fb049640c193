"""Applications over the searchers: matches, tournaments, ratings and the results database
(match/), the deck advisor (decks/), game annotation, the engine protocol server and the
pictures of their documents. They import engine/, search/ and solvers/, never cli/."""
