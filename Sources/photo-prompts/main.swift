import PhotoPrompts
import ArgumentParser
print("x")
