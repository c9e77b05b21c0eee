## Discord's faults (ephemeral): the command was made, Discord would not show it
discord-post-failed = Done, but Discord would not take my post in the game's thread (error { $status }). Nothing is lost: `/vl board` shows the game as it is now.
