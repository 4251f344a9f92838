# Three slow calls and 200 fast ones: a profile whose top is known
# (README, "Profiling Python, Ruby, Perl and PHP"; tests/t_profile.sh).
def fast():
    return sum(range(5000))

def slow():
    return sum(range(2000000))

def work():
    for _ in range(3):
        slow()
    for _ in range(200):
        fast()

work()
