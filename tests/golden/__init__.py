"""Golden rule cases (perft style): one text file per rule, posts in, votal and outcome out."""
