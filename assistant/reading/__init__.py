"""Reading posts and names: who a typed name means, who wrote a post, what the moderator's posts
announce."""
