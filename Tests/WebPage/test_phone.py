"""The page on a phone: the list first, filters in a sheet, text and targets of a touch screen."""
import os

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from servers import ROOT, Shared
from webpage import BrowserTests, emulate, history


class PhoneTests(BrowserTests):
    """The page on a phone's touch screen: the list first, filters behind a button, controls a thumb can hit."""

    @classmethod
    def setUpClass(cls):
        cls.open_browser(Shared(), history())

    def tearDown(self):
        emulate(self.driver, None)

    def test_at_320_by_568_the_list_comes_first_with_four_whole_rows(self):
        self.assertIn("four whole rows", open(os.path.join(ROOT, "README.md")).read(), "what the README promises")
        emulate(self.driver, 320, 568, touch=True)
        self.page.open()
        whole = self.driver.execute_script(
            "return [...document.querySelectorAll('#list li.row')].filter((r) => r.getBoundingClientRect().bottom <= innerHeight).length")
        self.assertGreaterEqual(whole, 4, "rows wholly on the first screen")
        self.assertFalse(self.driver.find_element(By.ID, "type").is_displayed(), "the filters wait behind their button")
        self.assertTrue(self.driver.find_element(By.ID, "q").is_displayed(), "the search stays in the bar")
        self.assertFalse(self.driver.execute_script("return document.documentElement.scrollWidth > innerWidth"), "no sideways scrolling")

    def test_the_filters_open_from_a_button_that_counts_them(self):
        emulate(self.driver, 390, 844, touch=True)
        self.page.open()
        toggle = self.driver.find_element(By.ID, "filter-toggle")
        self.assertEqual((toggle.text, toggle.get_attribute("aria-expanded")), ("Filters", "false"))
        toggle.click()
        self.page.wait(lambda: self.driver.find_element(By.ID, "type").is_displayed(), message="the panel opens")
        Select(self.driver.find_element(By.ID, "type")).select_by_value("pdf")
        self.page.wait(lambda: "type=pdf" in self.driver.current_url)
        self.page.click(lambda: self.driver.find_element(By.XPATH, '//div[@id="presets"]/button[text()="This year"]'))
        self.page.wait(lambda: self.driver.find_element(By.ID, "filter-toggle").text == "Filters (2)", message="two filters on")

    def test_the_filters_are_a_sheet_showing_how_many_and_what_is_on_stays_as_chips(self):
        emulate(self.driver, 390, 844, touch=True)
        self.page.open()
        self.driver.find_element(By.ID, "filter-toggle").click()
        Select(self.driver.find_element(By.ID, "type")).select_by_value("pdf")
        self.page.wait(lambda: "type=pdf" in self.driver.current_url)
        Select(self.driver.find_element(By.ID, "sort")).select_by_value("size")
        self.page.wait(lambda: "sort=size" in self.driver.current_url)
        show = self.driver.find_element(By.ID, "show-results")
        self.page.wait(lambda: show.text == "Show 25 shares", message=show.text)
        self.assertTrue(self.driver.find_element(By.ID, "type").is_displayed(), "the sheet stays open after a choice")
        show.click()
        self.page.wait(lambda: not self.driver.find_element(By.ID, "type").is_displayed(), message="the sheet closes")
        chips = lambda: [chip.text for chip in self.driver.find_elements(By.CSS_SELECTOR, "#active .chip")]
        self.assertEqual(chips(), ["PDF ✕", "Size: Largest first ✕"], "the sort and the filter stay in sight")
        self.driver.find_element(By.CSS_SELECTOR, "#active .chip").click()
        self.page.wait(lambda: "type=pdf" not in self.driver.current_url, message="one tap clears the type")
        self.page.wait(lambda: chips() == ["Size: Largest first ✕"])

    def test_the_keyboard_stays_in_the_open_sheet_and_escape_returns_to_its_button(self):
        emulate(self.driver, 390, 844, touch=True)
        self.page.open()
        toggle = self.driver.find_element(By.ID, "filter-toggle")
        toggle.click()
        self.page.wait(lambda: self.driver.find_element(By.ID, "type").is_displayed(), message="the sheet opens")
        inside = lambda: self.driver.execute_script("return document.getElementById('filter-panel').contains(document.activeElement)")
        self.assertTrue(inside(), "opening the sheet puts the keyboard in it")
        first = self.driver.switch_to.active_element
        # A date field holds several stops (day, month, year): twice round the sheet at least, whatever they number.
        for _ in range(60):
            ActionChains(self.driver).send_keys(Keys.TAB).perform()
            self.assertTrue(inside(), "Tab never leaves the sheet for the list behind it")
        show = self.driver.find_element(By.ID, "show-results")
        self.driver.execute_script("arguments[0].focus()", show)
        ActionChains(self.driver).send_keys(Keys.TAB).perform()
        self.assertEqual(self.driver.switch_to.active_element, first, "Tab past the last control comes back to the first")
        ActionChains(self.driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
        self.assertEqual(self.driver.switch_to.active_element, show, "Shift+Tab before the first control goes to the last")
        ActionChains(self.driver).send_keys(Keys.ESCAPE).perform()
        self.page.wait(lambda: not self.driver.find_element(By.ID, "type").is_displayed(), message="Escape closes the sheet")
        self.assertEqual(self.driver.switch_to.active_element, toggle, "and gives the keyboard back to the Filters button")

    def test_controls_have_16_px_text_and_44_px_targets(self):
        emulate(self.driver, 390, 844, touch=True)
        self.page.open()
        self.driver.find_element(By.ID, "filter-toggle").click()
        small = self.driver.execute_script("""
            const controls = [...document.querySelectorAll('button, input, select, a, .pick')].filter((c) => c.getClientRects().length
              && getComputedStyle(c).visibility !== 'hidden' && !c.closest('dialog, .pick') || c.matches?.('.pick'));
            return controls.filter((c) => c.type !== 'checkbox').flatMap((c) => {
              const box = c.getBoundingClientRect();
              const text = parseFloat(getComputedStyle(c).fontSize);
              const field = c.matches('input, select');
              const wrong = [];
              if (field && text < 16) wrong.push(`${c.id || c.className} text ${text}px`);
              if (!c.closest('.meta, .crumbs a') && box.height < 44) wrong.push(`${c.id || c.className || c.textContent} ${box.height}px high`);
              return wrong;
            });""")
        self.assertEqual(small, [], "fields iOS would zoom into, or targets under 44 px")
