import AxonBand
import Foundation
import Testing

/// The SDK's appendix and bit layouts: sports table, sleep types, week-repeat masks, models.
struct BandModelTests {
    @Test func theSportsTableIsTheAppendix() {
        #expect(BandSport.all.map(\.code) == Array(0x01...0x06) + Array(0x80...0x91))
        #expect(BandSport(code: 0x01)?.name == "walk")
        #expect(BandSport(code: 0x04)?.name == "rope skipping")
        #expect(BandSport(code: 0x8B)?.name == "rock climbing")
        #expect(BandSport(code: 0x91)?.name == "shuttlecock")
        #expect(BandSport(code: 0x07) == nil)
        #expect(BandSport(code: 0x7F) == nil)
        #expect(BandSport(code: 0x92) == nil)
        #expect(BandSport(name: "Rope_Skipping")?.code == 0x04)
        #expect(BandSport(name: "push up")?.code == 0x03)
    }

    @Test func sleepTypesAreOneToSix() {
        #expect(BandSleepType.allCases.map(\.rawValue) == [1, 2, 3, 4, 5, 6])
        #expect(BandSleepType(rawValue: 0) == nil)
        #expect(BandSleepType(rawValue: 7) == nil)
        #expect(BandSleepType.deepSleep.description == "deep sleep")
    }

    @Test(arguments: [
        ("repeat,mon", UInt8(0xC0)), ("sun", 0x01), ("sat", 0x02), ("fri", 0x04), ("thu", 0x08), ("wed", 0x10),
        ("tue", 0x20), ("weekdays", 0x7C), ("weekend", 0x03), ("repeat,daily", 0xFF), ("0xFC", 0xFC), ("129", 0x81),
    ])
    func weekMasksFollowTheSDKsBits(_ text: String, _ raw: UInt8) throws {
        let week = try #require(WeekRepeat(parsing: text))
        #expect(week.rawValue == raw)
        #expect(WeekRepeat(parsing: week.description)?.rawValue == raw || week.isEmpty)
    }

    @Test func weekMaskEdges() {
        #expect(WeekRepeat(parsing: "someday") == nil)
        #expect(!WeekRepeat.repeatWeekly.hasWeekday)
        #expect(WeekRepeat.sunday.hasWeekday)
        #expect(WeekRepeat(rawValue: 0xFC).description == "repeat,mon,tue,wed,thu,fri")
    }

    @Test func onlyTheSmarteeTrainingHasABackgroundColour() {
        #expect(BandModel.allCases.filter(\.hasBackgroundColour) == [.smarteeTraining])
        #expect(BandModel(rawValue: 9615) == .fitPulse)
    }

    @Test func sleepSegmentsCrossingMidnightKeepTheirLength() {
        let date = BandDate(year: 2026, month: 2, day: 28)!
        #expect(BandSleepSegment(date: date, startMinute: 1380, endMinute: 30, type: .lightSleep).minutes == 90)
        #expect(date.adding(days: 1) == BandDate(year: 2026, month: 3, day: 1))
        #expect(BandDate(year: 2026, month: 2, day: 29) == nil)
        #expect(BandDate(year: 2028, month: 2, day: 29) != nil)
    }
}
