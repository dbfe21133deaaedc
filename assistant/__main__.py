from assistant.cli.main import main

main()
