import StubLLM
import ArgumentParser
print("x")
