import ShareCLI

ShareProgram.main()
